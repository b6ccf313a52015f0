package dev.argus.bridge;

import dev.argus.access.ProtectedApp;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SockJS bridge at {@code /eventbus} of the real service (keys required), driven by the npm client
 * {@code @vertx/eventbus-bridge-client.js} under Node ({@code src/test/bridge/sockjs-client.js}; installed by
 * {@code scripts/setup-bridge-client}, which {@code scripts/test} runs): a search with a namespace-limited key (only its
 * namespace comes back), a forbidden address (403), a bad and a missing key (401) as error replies to the client's
 * callbacks, and an onboarding decision requested over the bridge and received again by a subscription to
 * {@code argus.decisions.created}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SockJsBridgeTest {

  private static final Path CLIENT_DIR = Path.of("src", "test", "bridge");

  private Vertx vertx;
  private TestApp app;
  private String admin;

  @BeforeAll
  void start() throws Exception {
    assertTrue(Files.isDirectory(CLIENT_DIR.resolve("node_modules/@vertx/eventbus-bridge-client.js")),
        "the bridge client is not installed: run scripts/setup-bridge-client");
    vertx = Vertx.vertx();
    ProtectedApp.Started started = ProtectedApp.start(vertx, TestApp.config(TestApp.tempDataDir()));
    app = started.app();
    admin = started.adminKey();
    for (String[] d : new String[][] {{"alpha-doc", "alpha"}, {"beta-doc", "beta"}}) {
      HttpResponse<String> r = post("/api/documents?wait=true", new JsonObject().put("id", d[0]).put("namespace", d[1])
          .put("title", "Triangulation fraud " + d[1]).put("text", "Triangulation fraud notes for " + d[1]
              + ": stolen cards buy goods shipped to real customers."));
      assertEquals(201, r.statusCode(), r.body());
    }
  }

  private HttpResponse<String> post(String path, JsonObject body) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }

  @AfterAll
  void stop() {
    if (app != null) {
      await(app.stop());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void theNpmClientSearchesSubscribesAndIsRefusedWithErrors() throws Exception {
    // limited to alpha for documents, and to the records' namespace (default) for the decisions it asks for
    HttpResponse<String> created = post("/api/keys", new JsonObject().put("role", "upstream")
        .put("namespaces", new JsonArray().add("alpha").add("default")));
    assertEquals(201, created.statusCode(), created.body());
    String key = new JsonObject(created.body()).getString("secret");
    Process node = new ProcessBuilder("node", "sockjs-client.js", "http://127.0.0.1:" + app.port(), key,
        "argus_aaaaaaaaaaaa_" + "D".repeat(43)).directory(CLIENT_DIR.toFile()).redirectErrorStream(true).start();
    List<JsonObject> steps = new ArrayList<>();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (!line.startsWith("{")) {
          steps.add(new JsonObject().put("step", "output").put("line", line));
          continue;
        }
        steps.add(new JsonObject(line));
      }
    } finally {
      node.waitFor(30, TimeUnit.SECONDS);
      node.destroyForcibly();
    }
    assertEquals(0, node.exitValue(), steps.toString());

    JsonObject search = find(steps, "search");
    assertNull(search.getValue("err"), search.encode());
    assertEquals(new JsonArray().add(new JsonObject().put("id", "alpha-doc").put("ns", "alpha")),
        search.getJsonArray("results"), "the alpha-only key sees only alpha: " + search.encode());

    JsonObject forbidden = find(steps, "forbidden").getJsonObject("err");
    assertEquals(403, forbidden.getInteger("failureCode"), forbidden.encode());
    assertTrue(forbidden.getString("message").contains("address_not_permitted"));
    JsonObject bad = find(steps, "badkey").getJsonObject("err");
    assertEquals(401, bad.getInteger("failureCode"), bad.encode());
    JsonObject none = find(steps, "nokey").getJsonObject("err");
    assertEquals(401, none.getInteger("failureCode"), none.encode());

    JsonObject reply = find(steps, "decision-reply");
    assertNull(reply.getValue("err"), reply.encode());
    assertEquals("S-SOCKJS", reply.getJsonObject("body").getString("subjectId"));
    JsonObject fromSubscription = find(steps, "decision-created").getJsonObject("body");
    assertEquals(reply.getJsonObject("body").getString("decisionId"), fromSubscription.getString("decisionId"));
    assertEquals(reply.getJsonObject("body").getString("outcome"), fromSubscription.getString("outcome"));
  }

  private static JsonObject find(List<JsonObject> steps, String name) {
    JsonObject found = steps.stream().filter(s -> name.equals(s.getString("step"))).findFirst().orElse(null);
    assertNotNull(found, "no step '" + name + "' in " + steps);
    return found;
  }
}
