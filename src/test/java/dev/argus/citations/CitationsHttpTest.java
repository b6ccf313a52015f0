package dev.argus.citations;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Citation validation on the running service: HTTP and the bus address, bad input, source citations. */
class CitationsHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    warmUpNettyOffTheEventLoop();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("citations", "maxCitations", 5)
        .with("citations", "maxEvidence", 3);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  /**
   * Netty's first pooled chunk initialises its JDK Flight Recorder event class, which on a loaded 2-core machine took
   * 2-3 s inside the first HTTP write and tripped the blocked-thread checker (stack seen: AllocateChunkEvent.<clinit>
   * → FlightRecorder.register). Initialising it here, on the test thread, keeps that one-time cost off the loops.
   */
  static void warmUpNettyOffTheEventLoop() {
    try {
      Class.forName("io.netty.buffer.AllocateChunkEvent", true, CitationsHttpTest.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError ignored) {
      // another Netty version: nothing to warm up
    }
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> post(String body) {
    return await(client.post("/api/citations/validate").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(body)));
  }

  static JsonObject evidence(int index, String tool, boolean success, int items) {
    JsonArray list = new JsonArray();
    for (int i = 0; i < items; i++) {
      list.add(new JsonObject().put("kind", "signal").put("cite", "[entity:seller:S-1]"));
    }
    return new JsonObject().put("index", index).put("tool", tool).put("success", success)
        .put("data", success ? new JsonObject().put("items", list) : null).put("error", success ? null : "down");
  }

  @Test
  void badRequestsAreRefusedWithACode() {
    record Case(String body, String code) {
    }
    for (Case c : new Case[] {
        new Case("{}", "invalid_request"),
        new Case("{\"citations\": \"[rel:x]\"}", "invalid_request"),
        new Case("{\"citations\": [1]}", "invalid_request"),
        new Case("{\"citations\": [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\"]}", "too_many_citations"),
        new Case("{\"citations\": [{\"citation\": \"[rel:x]\", \"claim\": {\"from\": \"S-1\"}}]}", "invalid_claim"),
        new Case("{\"citations\": [{\"citation\": \"[rel:x]\", \"claim\": {\"to\": \"S-1\", \"relation\": \"x\"}}]}",
            "invalid_claim"),
        new Case("{\"citations\": [], \"evidence\": [{\"index\": 0, \"tool\": \"t\"}]}", "invalid_evidence"),
        new Case("{\"citations\": [], \"evidence\": [{\"index\": 0, \"tool\": \"t\", \"success\": true},"
            + "{\"index\": 0, \"tool\": \"u\", \"success\": true}]}", "invalid_evidence"),
        new Case("{\"citations\": [], \"evidence\": [{},{},{},{}]}", "too_much_evidence"),
        new Case("{\"citations\": [], \"asOf\": \"yesterday\"}", "invalid_as_of")}) {
      HttpResponse<Buffer> r = post(c.body());
      assertEquals(400, r.statusCode(), c.body() + " -> " + r.bodyAsString());
      assertEquals(c.code(), r.bodyAsJsonObject().getString("code"), c.body());
      assertTrue(!r.bodyAsJsonObject().getString("error").isBlank());
    }
    assertEquals(400, post("[not json").statusCode());
  }

  @Test
  void sourceAndMalformedCitationsOverHttp() {
    JsonObject body = new JsonObject()
        .put("evidence", new JsonArray().add(evidence(0, "seller_profile", true, 2))
            .add(evidence(1, "ip_risk", false, 0)).add(evidence(2, "email_risk", true, 0)))
        .put("citations", new JsonArray().add("[source:seller_profile:0]").add("[source:ip_risk:1]")
            .add("[source:email_risk:2]").add("[entity:seller:S 1]"));
    HttpResponse<Buffer> r = post(body.encode());
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonArray results = r.bodyAsJsonObject().getJsonArray("results");
    assertEquals("2026-11-25.1", r.bodyAsJsonObject().getString("rulesVersion"));
    // 0.9 succeeded with findings; 0.3 failed; 0.1 nothing found; malformed 0
    assertEquals(0.9, results.getJsonObject(0).getDouble("confidence"));
    assertEquals("valid", results.getJsonObject(0).getString("status"));
    assertEquals(0.3, results.getJsonObject(1).getDouble("confidence"));
    assertEquals("flagged", results.getJsonObject(1).getString("status"));
    assertEquals(0.1, results.getJsonObject(2).getDouble("confidence"));
    assertEquals("excluded", results.getJsonObject(2).getString("status"));
    assertEquals("excluded", results.getJsonObject(3).getString("status"));
    assertTrue(results.getJsonObject(3).getString("reason").startsWith("malformed citation"));
    assertTrue(results.getJsonObject(0).getJsonArray("reasoning").size() >= 2);
  }

  @Test
  void theBusAddressAnswersTheSameAndFailsBadShapesWith400() {
    JsonObject reply = await(vertx.eventBus().<JsonObject>request(Addresses.CITATIONS_VALIDATE, new JsonObject()
        .put("citations", new JsonArray().add(new JsonObject().put("citation", "[source:seller_profile:0]")))
        .put("evidence", new JsonArray().add(evidence(0, "seller_profile", true, 1))))).body();
    assertEquals(0.9, reply.getJsonArray("results").getJsonObject(0).getDouble("confidence"));
    ReplyException e = assertThrows(ReplyException.class, () -> await(vertx.eventBus()
        .request(Addresses.CITATIONS_VALIDATE, new JsonObject().put("citations", 3))));
    assertEquals(400, e.failureCode());
  }
}
