package dev.argus.backtest;

import dev.argus.agent.SseClient;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backtests over real HTTP against the whole service (real SQLite file, real SSE client): the job, its events, the
 * world stored without labels, and the 4xx answers. Whether decisions succeed depends on the decision engine being
 * deployed; either way every subject is decided or counted as failed, never dropped.
 */
class BacktestHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("backtest", "concurrency", 2);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> post(String path, String body, String type) {
    return await(client.post(path).putHeader("Content-Type", type).sendBuffer(Buffer.buffer(body)));
  }

  static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  static JsonObject finished(String id) {
    SseClient.Result r = await(new SseClient(vertx, app.port()).get("/api/backtests/" + id + "/events", null,
        ev -> ev.type().equals(BacktestEvent.DONE)), 300);
    assertEquals(200, r.status());
    assertTrue(r.types().contains(BacktestEvent.DONE), r.types().toString());
    List<Long> ids = r.events().stream().map(SseClient.Event::id).toList();
    for (int i = 1; i < ids.size(); i++) {
      assertTrue(ids.get(i) > ids.get(i - 1), "event ids grow: " + ids);
    }
    return r.last(BacktestEvent.DONE).data();
  }

  @Test
  void decidesEveryLabelledSellerOfAnUploadedWorld() {
    HttpResponse<Buffer> r = post("/api/backtests?concurrency=2", BacktestFixtures.world(), "application/jsonl");
    assertEquals(202, r.statusCode(), r.bodyAsString());
    String id = r.bodyAsJsonObject().getString("backtestId");
    assertEquals("/api/backtests/" + id, r.getHeader("Location"));
    assertEquals("upload", r.bodyAsJsonObject().getJsonObject("request").getString("source"));
    assertFalse(r.bodyAsJsonObject().getJsonObject("request").containsKey("text"), "the world is not echoed");
    JsonObject done = finished(id);
    assertEquals("completed", done.getString("status"), done.encodePrettily());
    assertEquals(13, done.getJsonObject("world").getLong("lines"));
    assertEquals(13, done.getJsonObject("load").getLong("created"));
    assertEquals(5, done.getLong("subjects")); // S-1..S-5; S-6 has no label
    assertEquals(5, done.getLong("decided") + done.getLong("failed"));
    JsonObject report = done.getJsonObject("report");
    assertNotNull(report);
    assertEquals(5, report.getLong("subjects"));
    assertEquals(7, report.getJsonArray("targets").size());
    // the job as GET shows it
    JsonObject job = get("/api/backtests/" + id).bodyAsJsonObject();
    assertEquals("completed", job.getString("status"));
    assertEquals(report, job.getJsonObject("report"));
    assertTrue(get("/api/backtests").bodyAsJsonObject().getJsonArray("backtests").stream()
        .anyMatch(j -> id.equals(((JsonObject) j).getString("backtestId"))));
    // the store holds the world without its labels
    JsonObject seller = get("/api/records/S-1").bodyAsJsonObject();
    assertEquals("Mia Mulder", seller.getString("legalName"));
    assertFalse(seller.containsKey("label"));
  }

  @Test
  void aWorldWithoutLabelsFailsTheBacktestWithAReason() {
    String unlabelled = "{\"kind\":\"seller\",\"id\":\"S-90\",\"createdAt\":\"2025-01-01T00:00:00Z\","
        + "\"legalName\":\"No Label\",\"country\":\"DE\"}\n";
    HttpResponse<Buffer> r = post("/api/backtests", unlabelled, "application/x-ndjson");
    assertEquals(202, r.statusCode(), r.bodyAsString());
    JsonObject done = finished(r.bodyAsJsonObject().getString("backtestId"));
    assertEquals("failed", done.getString("status"));
    assertTrue(done.getString("error").startsWith("no_labelled_subjects"), done.getString("error"));
    assertFalse(done.containsKey("report"));
  }

  @Test
  void badRequestsAreRefusedWithACode() {
    assertError(post("/api/backtests", "hello", "text/plain"), 415, "unsupported_media_type");
    assertError(post("/api/backtests", "", "application/jsonl"), 400, "empty_world");
    assertError(post("/api/backtests", "{\"worldFile\":\"/etc/passwd\"}", "application/json"), 400,
        "invalid_field");
    assertError(post("/api/backtests", "[1,2]", "application/json"), 400, "invalid_json");
    assertError(post("/api/backtests", "{}", "application/json"), 400, "invalid_world");
    assertError(post("/api/backtests", "{\"generate\":{\"sellers\":10}}", "application/json"), 400,
        "invalid_field");
    assertError(post("/api/backtests?subjects=buyers", BacktestFixtures.world(), "application/jsonl"), 400,
        "invalid_field");
    assertError(post("/api/backtests?sample=many", BacktestFixtures.world(), "application/jsonl"), 400,
        "invalid_parameter");
    assertError(post("/api/backtests?asOf=yesterday", BacktestFixtures.world(), "application/jsonl"), 400,
        "invalid_field");
    assertError(get("/api/backtests/nope"), 404, "unknown_backtest");
    assertError(get("/api/backtests/nope/events"), 404, "unknown_backtest");
    assertError(post("/api/backtests/nope/thresholds/adopt", "{\"adoptedBy\":\"a\"}", "application/json"), 404,
        "unknown_backtest");
    assertError(post("/api/backtests/nope/thresholds/adopt", "not json", "application/json"), 400, "invalid_json");
  }

  static void assertError(HttpResponse<Buffer> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    assertEquals(code, r.bodyAsJsonObject().getString("code"), r.bodyAsString());
    assertNotNull(r.bodyAsJsonObject().getString("error"));
  }
}
