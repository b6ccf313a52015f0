package dev.argus.access;

import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/runs} follows a key's namespace limit (the real service, keys required): an unlimited key lists a
 * chat run of {@code default} and a decision's run; a key limited to another namespace lists neither.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunListNamespaceTest {

  private static final String SELLER = "{\"kind\":\"seller\",\"id\":\"S-RL-1\",\"createdAt\":\"2025-01-10T10:00:00Z\","
      + "\"legalName\":\"Rita List\",\"businessName\":\"Run List Shop\",\"email\":\"rita@runlist.example\","
      + "\"phone\":\"+12015550043\",\"country\":\"DE\",\"status\":\"active\"}\n";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private Vertx vertx;
  private TestApp app;
  private String admin;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    ProtectedApp.Started started = ProtectedApp.start(vertx, TestApp.config(TestApp.tempDataDir()));
    app = started.app();
    admin = started.adminKey();
  }

  @AfterAll
  void stop() {
    await(vertx.close());
  }

  private HttpResponse<String> send(String method, String path, String body, String key, String type) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + key)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (type != null) {
      b.header("Content-Type", type);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> listed(String key) throws Exception {
    HttpResponse<String> r = send("GET", "/api/runs?limit=200", null, key, null);
    assertEquals(200, r.statusCode(), r.body());
    JsonArray items = new JsonObject(r.body()).getJsonArray("items");
    return items.stream().map(o -> ((JsonObject) o).getString("runId")).toList();
  }

  @Test
  void aLimitedKeyListsOnlyTheRunsOfItsNamespaces() throws Exception {
    assertEquals(201, send("POST", "/api/records?wait=true", SELLER, admin, "application/jsonl").statusCode());
    HttpResponse<String> decided = send("POST", "/api/decisions/onboarding", "{\"sellerId\":\"S-RL-1\"}", admin,
        "application/json");
    assertTrue(decided.statusCode() == 200 || decided.statusCode() == 201, decided.body());
    String decisionRun = new JsonObject(decided.body()).getString("runId");
    HttpResponse<String> chat = send("POST", "/api/chat", "{\"question\":\"What is the refund policy?\"}", admin,
        "application/json");
    assertEquals(200, chat.statusCode(), chat.body());
    String chatRun = chat.headers().firstValue("X-Run-Id").orElseThrow();

    String other = key(new JsonObject().put("role", "analyst").put("namespaces", new JsonArray().add("other")));
    String domain = key(new JsonObject().put("role", "analyst").put("namespaces", new JsonArray().add("default")));

    List<String> all = listed(admin);
    assertTrue(all.contains(chatRun), all.toString());
    assertTrue(all.contains(decisionRun), all.toString());
    List<String> limitedToOther = listed(other);
    assertFalse(limitedToOther.contains(chatRun), limitedToOther.toString());
    assertFalse(limitedToOther.contains(decisionRun), limitedToOther.toString());
    List<String> limitedToDefault = listed(domain);
    assertTrue(limitedToDefault.contains(chatRun), limitedToDefault.toString());
    assertFalse(limitedToDefault.contains(decisionRun), "a decision's run carries no namespace: left out of a limited list");

    // by id, the same rule: what a key may not list is as absent as an unknown run (run, events, trace)
    for (String path : List.of("/api/runs/" + chatRun, "/api/runs/" + chatRun + "/events",
        "/api/runs/" + chatRun + "/trace")) {
      HttpResponse<String> hidden = send("GET", path, null, other, null);
      assertEquals(404, hidden.statusCode(), path + " " + hidden.body());
      assertEquals("unknown_run", new JsonObject(hidden.body()).getString("code"), path);
    }
    assertEquals(200, send("GET", "/api/runs/" + chatRun, null, domain, null).statusCode());
    assertEquals(404, send("GET", "/api/runs/" + decisionRun, null, domain, null).statusCode());
    assertEquals(200, send("GET", "/api/runs/" + decisionRun, null, admin, null).statusCode());
  }

  private String key(JsonObject body) throws Exception {
    HttpResponse<String> r = send("POST", "/api/keys", body.encode(), admin, "application/json");
    assertEquals(201, r.statusCode(), r.body());
    return new JsonObject(r.body()).getString("secret");
  }
}
