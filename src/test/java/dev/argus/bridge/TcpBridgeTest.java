package dev.argus.bridge;

import dev.argus.access.ProtectedApp;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.ServerSocket;
import java.util.List;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TCP event-bus bridge of the real service (keys required), spoken to by a client written from the framing:
 * a search with the key in the message's {@code authorization} header; a key limited to a namespace searching; a
 * subscription to {@code argus.decisions.created} receiving a published decision; refusals as error replies on the
 * request's reply address: a forbidden address (403), a bad or missing key (401), a role without the permission (403),
 * a subscription without a key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TcpBridgeTest {

  private Vertx vertx;
  private TestApp app;
  private String admin;
  private String upstream;
  private String reader;
  private String alphaOnly;
  private int tcpPort;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    try (ServerSocket free = new ServerSocket(0)) {
      tcpPort = free.getLocalPort();
    }
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("bridge", "tcpEnabled", true)
        .with("bridge", "tcpPort", tcpPort);
    ProtectedApp.Started started = ProtectedApp.start(vertx, conf);
    app = started.app();
    admin = started.adminKey();
    upstream = createKey(new JsonObject().put("role", "upstream"));
    reader = createKey(new JsonObject().put("role", "reader"));
    alphaOnly = createKey(new JsonObject().put("role", "upstream").put("namespaces", new JsonArray().add("alpha")));
    for (String[] d : new String[][] {{"alpha-doc", "alpha"}, {"beta-doc", "beta"}}) {
      int status = post("/api/documents?wait=true", new JsonObject().put("id", d[0]).put("namespace", d[1])
          .put("title", "Triangulation fraud " + d[1]).put("text", "Triangulation fraud notes for " + d[1]
              + ": stolen cards buy goods shipped to real customers.")).statusCode();
      assertEquals(201, status);
    }
  }

  private HttpResponse<String> post(String path, JsonObject body) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(), HttpResponse.BodyHandlers.ofString());
  }

  private String createKey(JsonObject request) throws Exception {
    HttpResponse<String> r = post("/api/keys", request);
    assertEquals(201, r.statusCode(), r.body());
    return new JsonObject(r.body()).getString("secret");
  }

  @AfterAll
  void stop() {
    await(app.stop());
    await(vertx.close());
  }

  @Test
  void aSearchOverTheBridgeAnswersWithResults() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.send("argus.retrieve.search", "r-search", upstream, new JsonObject().put("query", "triangulation fraud")
          .put("topK", 5));
      JsonObject reply = client.readFor("r-search", 30_000);
      assertNotNull(reply);
      assertEquals("message", reply.getString("type"), reply.encode());
      JsonArray results = reply.getJsonObject("body").getJsonArray("results");
      assertEquals(2, results.size(), reply.encode());
      assertFalse(reply.containsKey("headers") && reply.getJsonObject("headers").containsKey("authorization"));
    }
  }

  @Test
  void aNamespaceLimitedKeySearchesOnlyItsNamespaceWhateverTheBodySays() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.send("argus.retrieve.search", "r-alpha", alphaOnly, new JsonObject().put("query", "triangulation fraud")
          .put("allowedNamespaces", new JsonArray().add("alpha").add("beta")));
      JsonObject reply = client.readFor("r-alpha", 30_000);
      assertEquals("message", reply.getString("type"), reply.encode());
      JsonArray results = reply.getJsonObject("body").getJsonArray("results");
      assertEquals(1, results.size(), reply.encode());
      assertEquals("alpha-doc", results.getJsonObject(0).getString("documentId"));
      client.send("argus.retrieve.search", "r-beta", alphaOnly, new JsonObject().put("query", "fraud")
          .put("namespace", "beta"));
      JsonObject refused = client.readFor("r-beta", 30_000);
      assertEquals("err", refused.getString("type"));
      assertEquals(403, refused.getInteger("failureCode"), refused.encode());
      assertTrue(refused.getString("message").contains("namespace_forbidden"), refused.encode());
    }
  }

  @Test
  void aKeyLimitedToAnotherNamespaceReachesNoDecisionAddress() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.send("argus.decisions.list", "r-list", alphaOnly, new JsonObject().put("limit", 5));
      JsonObject refused = client.readFor("r-list", 30_000);
      assertEquals("err", refused.getString("type"), refused.encode());
      assertEquals(403, refused.getInteger("failureCode"), refused.encode());
      assertTrue(refused.getString("message").contains("namespace_forbidden"), refused.encode());
      client.register("argus.decisions.created", alphaOnly);
      JsonObject decision = new JsonObject().put("decisionId", "D-NS").put("outcome", "REVIEW");
      JsonObject received = null;
      for (int i = 0; i < 10 && received == null; i++) {
        vertx.eventBus().publish("argus.decisions.created", decision);
        received = client.readFor("argus.decisions.created", 100);
      }
      assertNull(received, "no decision reaches a key limited to another namespace");
    }
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) { // the same request with an unlimited key
      client.send("argus.decisions.list", "r-list-ok", upstream, new JsonObject().put("limit", 5));
      JsonObject reply = client.readFor("r-list-ok", 30_000);
      assertEquals("message", reply.getString("type"), reply.encode());
    }
  }

  @Test
  void aSubscriberReceivesDecisionsCreated() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.register("argus.decisions.created", reader);
      JsonObject decision = new JsonObject().put("decisionId", "D-1").put("outcome", "REVIEW").put("riskScore", 61);
      JsonObject received = null;
      for (int i = 0; i < 50 && received == null; i++) { // the registration is not acknowledged: publish until seen
        vertx.eventBus().publish("argus.decisions.created", decision);
        received = client.readFor("argus.decisions.created", 200);
      }
      assertNotNull(received, "the subscriber received the decision");
      assertEquals(decision, received.getJsonObject("body"));
    }
  }

  @Test
  void anUpstreamSystemRequestsADecisionAndASubscriberReceivesIt() throws Exception {
    try (TcpBridgeClient subscriber = new TcpBridgeClient(tcpPort); TcpBridgeClient upstreamClient =
        new TcpBridgeClient(tcpPort)) {
      subscriber.register("argus.decisions.created", reader);
      // a registration is not acknowledged: make sure it is in place with a marker decision first
      JsonObject marker = new JsonObject().put("decisionId", "marker");
      JsonObject seen = null;
      for (int i = 0; i < 50 && seen == null; i++) {
        vertx.eventBus().publish("argus.decisions.created", marker);
        seen = subscriber.readFor("argus.decisions.created", 200);
      }
      assertNotNull(seen);
      upstreamClient.send("argus.decide.onboarding", "d1", upstream, new JsonObject()
          .put("asOf", "2025-06-01T00:00:00Z").put("seller", new JsonObject().put("id", "S-BRIDGE")
              .put("createdAt", "2023-01-01T00:00:00Z").put("legalName", "Brid Ge").put("country", "NL")));
      JsonObject reply = upstreamClient.readFor("d1", 60_000);
      assertNotNull(reply, "a decision reply");
      assertEquals("message", reply.getString("type"), reply.encode());
      JsonObject decision = reply.getJsonObject("body");
      assertEquals("S-BRIDGE", decision.getString("subjectId"), decision.encode());
      assertTrue(List.of("APPROVE", "REVIEW", "REJECT").contains(decision.getString("outcome")), decision.encode());
      JsonObject created = null;
      for (int i = 0; i < 100 && created == null; i++) {
        JsonObject f = subscriber.readFor("argus.decisions.created", 300);
        if (f != null && decision.getString("decisionId").equals(f.getJsonObject("body").getString("decisionId"))) {
          created = f;
        }
      }
      assertNotNull(created, "the subscriber received the new decision");
      assertEquals(decision.getString("outcome"), created.getJsonObject("body").getString("outcome"));
    }
  }

  @Test
  void refusalsAreErrorRepliesNotSilence() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      // an address that does not cross the bridge, even for an admin
      client.send("argus.knowledge.document.delete", "r1", admin, new JsonObject().put("id", "alpha-doc"));
      JsonObject forbidden = client.readFor("r1", 10_000);
      assertEquals("err", forbidden.getString("type"));
      assertEquals(403, forbidden.getInteger("failureCode"));
      assertEquals("address_not_permitted", new JsonObject(forbidden.getString("message")).getString("code"));
      // a bad key, and no key at all (keys are required even on loopback)
      client.send("argus.retrieve.search", "r2", "argus_aaaaaaaaaaaa_" + "C".repeat(43),
          new JsonObject().put("query", "x"));
      JsonObject bad = client.readFor("r2", 10_000);
      assertEquals(401, bad.getInteger("failureCode"), bad.encode());
      assertEquals("unauthorized", new JsonObject(bad.getString("message")).getString("code"));
      client.send("argus.retrieve.search", "r3", null, new JsonObject().put("query", "x"));
      assertEquals(401, client.readFor("r3", 10_000).getInteger("failureCode"));
      // a reader may search but not ask for decisions
      client.send("argus.decide.onboarding", "r4", reader, new JsonObject().put("sellerId", "S-1"));
      JsonObject role = client.readFor("r4", 10_000);
      assertEquals(403, role.getInteger("failureCode"), role.encode());
      assertEquals("forbidden", new JsonObject(role.getString("message")).getString("code"));
      // the decide capability's internal addresses do not cross, even for an admin
      client.send("argus.decide.assess.identity", "r5", admin, new JsonObject());
      assertEquals(403, client.readFor("r5", 10_000).getInteger("failureCode"));
    }
    // a subscription without a key is refused and delivers nothing
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.register("argus.decisions.created", null);
      JsonObject err = client.read();
      assertEquals("err", err.getString("type"), err.encode());
      vertx.eventBus().publish("argus.decisions.created", new JsonObject().put("decisionId", "D-2"));
      assertNull(client.readFor("argus.decisions.created", 1_000));
    }
  }
}
