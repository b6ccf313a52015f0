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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Graph and decision data follow a key's namespace limit (the real service, keys required): the fraud domain lives in
 * {@code records.caseNamespace} ({@code default}), so a key limited to another namespace is refused with 403
 * {@code namespace_forbidden} on records, entities, relations, graph investigation, decisions, reviews, shadow diffs,
 * backtests, citation validation, calibration and the feedback queue, while a key limited to {@code default} and an
 * unlimited key are served; the limited key keeps its own namespace's documents.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DomainNamespaceTest {

  private static final String SELLER = "{\"kind\":\"seller\",\"id\":\"S-NS-1\",\"createdAt\":\"2025-01-10T10:00:00Z\","
      + "\"legalName\":\"Nora Space\",\"businessName\":\"Namespace Shop\",\"email\":\"nora@ns-shop.example\","
      + "\"phone\":\"+12015550042\",\"country\":\"DE\",\"status\":\"active\"}\n";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private Vertx vertx;
  private TestApp app;
  private String admin;
  private String other;
  private String domain;
  private String unlimited;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ProtectedApp.Started started = ProtectedApp.start(vertx, TestApp.config(TestApp.tempDataDir()));
    app = started.app();
    admin = started.adminKey();
    other = key(new JsonObject().put("role", "analyst").put("namespaces", new JsonArray().add("other")));
    domain = key(new JsonObject().put("role", "analyst").put("namespaces", new JsonArray().add("default")));
    unlimited = key(new JsonObject().put("role", "analyst"));
    HttpResponse<String> loaded = send("POST", "/api/records?wait=true", SELLER, admin, "application/jsonl");
    assertEquals(201, loaded.statusCode(), loaded.body());
  }

  @AfterAll
  void stop() {
    await(vertx.close());
  }

  private String key(JsonObject body) throws Exception {
    HttpResponse<String> r = send("POST", "/api/keys", body.encode(), admin, "application/json");
    assertEquals(201, r.statusCode(), r.body());
    return new JsonObject(r.body()).getString("secret");
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

  private static final List<String[]> DOMAIN_ROUTES = List.of(
      new String[] {"GET", "/api/records?limit=5", null},
      new String[] {"GET", "/api/records/S-NS-1", null},
      new String[] {"GET", "/api/entities/S-NS-1", null},
      new String[] {"GET", "/api/entities/S-NS-1/graph?depth=1", null},
      new String[] {"GET", "/api/entities/search?q=Namespace", null},
      new String[] {"POST", "/api/graph/investigate", "{\"entity\":\"S-NS-1\"}"},
      new String[] {"GET", "/api/decisions?limit=5", null},
      new String[] {"POST", "/api/decisions/onboarding", "{\"sellerId\":\"S-NS-1\"}"},
      new String[] {"GET", "/api/reviews", null},
      new String[] {"GET", "/api/feedback/queue", null},
      new String[] {"GET", "/api/calibration", null},
      new String[] {"GET", "/api/backtests", null});

  @Test
  void aKeyLimitedToAnotherNamespaceIsRefusedTheDomainData() throws Exception {
    for (String[] r : DOMAIN_ROUTES) {
      HttpResponse<String> refused = send(r[0], r[1], r[2], other, r[2] == null ? null : "application/json");
      assertEquals(403, refused.statusCode(), r[0] + " " + r[1] + ": " + refused.body());
      JsonObject body = new JsonObject(refused.body());
      assertEquals("namespace_forbidden", body.getString("code"), r[1]);
      assertTrue(body.getString("error").contains("'default'"), body.getString("error"));
    }
  }

  @Test
  void theRecordsNamespaceAndUnlimitedKeysAreServed() throws Exception {
    for (String key : List.of(domain, unlimited)) {
      for (String[] r : DOMAIN_ROUTES) {
        HttpResponse<String> served = send(r[0], r[1], r[2], key, r[2] == null ? null : "application/json");
        assertTrue(served.statusCode() == 200 || served.statusCode() == 201, r[0] + " " + r[1] + ": "
            + served.statusCode() + " " + served.body());
      }
    }
    HttpResponse<String> entity = send("GET", "/api/entities/S-NS-1", null, domain, null);
    assertEquals("Namespace Shop", new JsonObject(entity.body()).getString("label"), entity.body());
  }

  @Test
  void theLimitedKeyKeepsItsOwnDocuments() throws Exception {
    HttpResponse<String> docs = send("GET", "/api/documents?namespace=other", null, other, null);
    assertEquals(200, docs.statusCode(), docs.body());
    assertEquals(403, send("GET", "/api/documents?namespace=default", null, other, null).statusCode());
  }
}
