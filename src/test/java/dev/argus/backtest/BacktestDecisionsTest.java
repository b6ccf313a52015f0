package dev.argus.backtest;

import dev.argus.agent.SseClient;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backtests against the real decision engine (no LLM; graph, records and decide deployed; real SQLite, real HTTP and
 * SSE): every labelled seller decided and measured, the per-subject verdicts agreeing with the report, adoption of
 * the proposed thresholds as a scoring version, and no record later than {@code asOf} changing a decision.
 */
class BacktestDecisionsTest {

  static final String ONBOARDING = LabelledSubject.ONBOARDING;
  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  private static Path scoring;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    scoring = Files.createTempDirectory("argus-scoring-");
    try (Stream<Path> files = Files.list(Path.of("conf/scoring"))) {
      for (Path f : files.toList()) {
        Files.copy(f, scoring.resolve(f.getFileName()));
      }
    }
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("decide", "scoringDir", scoring.toString())
        .with("decide", "useLlm", false).with("backtest", "concurrency", 2);
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

  static JsonObject backtest(String query) {
    HttpResponse<Buffer> r = post("/api/backtests" + query, BacktestFixtures.world(), "application/jsonl");
    assertEquals(202, r.statusCode(), r.bodyAsString());
    String id = r.bodyAsJsonObject().getString("backtestId");
    SseClient.Result events = await(new SseClient(vertx, app.port()).get("/api/backtests/" + id + "/events", null,
        ev -> ev.type().equals(BacktestEvent.DONE)), 600);
    JsonObject done = events.last(BacktestEvent.DONE).data();
    assertEquals("completed", done.getString("status"), done.encodePrettily());
    assertEquals(0, done.getLong("failed"), done.getJsonObject("report").getJsonArray("failures").encodePrettily());
    return done;
  }

  static Map<String, JsonObject> verdicts(String id) {
    JsonObject page = await(client.get("/api/backtests/" + id + "/decisions?limit=1000").send()).bodyAsJsonObject();
    Map<String, JsonObject> out = new HashMap<>();
    page.getJsonArray("decisions").forEach(d -> out.put(((JsonObject) d).getString("subjectId"), (JsonObject) d));
    return out;
  }

  @Test
  void decidesEveryLabelledSellerAndMeasuresIt() throws Exception {
    JsonObject done = backtest("");
    String id = done.getString("backtestId");
    JsonObject section = done.getJsonObject("report").getJsonObject("profiles").getJsonObject(ONBOARDING);
    assertEquals(5, section.getLong("decisions"));
    assertEquals(2, section.getLong("fraudSubjects"));
    Map<String, JsonObject> v = verdicts(id);
    assertEquals(Set.of("S-1", "S-2", "S-3", "S-4", "S-5"), v.keySet());
    // the report agrees with the verdicts, counted here from scratch
    long tp = 0;
    long fp = 0;
    long reviewed = 0;
    for (JsonObject d : v.values()) {
      assertTrue(List.of("APPROVE", "REVIEW", "REJECT").contains(d.getString("outcome")), d.encode());
      assertTrue(d.getDouble("riskScore") >= 0 && d.getDouble("riskScore") <= 100);
      assertTrue(d.getDouble("latencyMs") > 0);
      boolean flagged = !"APPROVE".equals(d.getString("outcome"));
      tp += flagged && d.getBoolean("fraud") ? 1 : 0;
      fp += flagged && !d.getBoolean("fraud") ? 1 : 0;
      reviewed += "REVIEW".equals(d.getString("outcome")) || "PENDING_REVIEW".equals(d.getString("status")) ? 1 : 0;
    }
    JsonObject flagged = section.getJsonObject("flagged");
    assertEquals(tp, flagged.getLong("tp"));
    assertEquals(fp, flagged.getLong("fp"));
    assertEquals(2 - tp, flagged.getLong("fn"));
    assertEquals(reviewed / 5.0, section.getDouble("reviewRate"), 1e-4);
    JsonObject confusion = section.getJsonObject("confusion");
    assertEquals(2, confusion.getJsonObject("fraud").stream().mapToLong(e -> ((Number) e.getValue()).longValue()).sum());
    assertEquals(3, confusion.getJsonObject("honest").stream().mapToLong(e -> ((Number) e.getValue()).longValue()).sum());
    assertEquals(2, await(client.get("/api/backtests/" + id + "/decisions?fraud=true").send()).bodyAsJsonObject()
        .getLong("total"));

    // adoption: the proposal becomes a new scoring version file beside the live one
    JsonObject proposed = section.getJsonObject("thresholds").getJsonObject("proposed");
    assertNotNull(proposed);
    HttpResponse<Buffer> missing = post("/api/backtests/" + id + "/thresholds/adopt", "{}", "application/json");
    assertEquals(400, missing.statusCode(), missing.bodyAsString()); // who adopts it is required
    HttpResponse<Buffer> adopted = post("/api/backtests/" + id + "/thresholds/adopt",
        "{\"adoptedBy\":\"analyst@example\",\"version\":\"onboarding-bt1\"}", "application/json");
    assertEquals(201, adopted.statusCode(), adopted.bodyAsString());
    JsonObject file = new JsonObject(Files.readString(scoring.resolve("seller_onboarding@onboarding-bt1.json")));
    assertEquals("onboarding-bt1", file.getString("version"));
    assertEquals(Math.min(100.0, proposed.getDouble("review")), file.getJsonObject("thresholds").getDouble("review"));
    assertEquals(Math.min(100.0, proposed.getDouble("reject")), file.getJsonObject("thresholds").getDouble("reject"));
    assertEquals(id, file.getJsonObject("adoption").getString("backtestId"));
    assertEquals(409, post("/api/backtests/" + id + "/thresholds/adopt",
        "{\"adoptedBy\":\"analyst@example\",\"version\":\"onboarding-bt1\"}", "application/json").statusCode());
  }

  @Test
  void aRecordAfterAsOfDoesNotChangeTheDecision() {
    String asOf = "2025-03-04T00:00:00Z";
    Map<String, JsonObject> before = verdicts(backtest("?asOf=" + asOf).getString("backtestId"));
    // S-3 (background) gets a severe risk event and a fraud case, both after asOf
    String later = """
        {"kind":"risk_event","id":"E-90","at":"2025-03-10T00:00:00Z","subjectId":"S-3","type":"chargeback_spike","severity":"high","details":{"window":"7d"}}
        {"kind":"risk_event","id":"E-91","at":"2025-03-10T01:00:00Z","subjectId":"S-3","type":"bank_account_changed","severity":"high","details":{}}
        {"kind":"case","id":"C-90","subjectIds":["S-3"],"outcome":"fraud","summary":"S-3 confirmed fraud.","openedAt":"2025-03-10T00:00:00Z","closedAt":"2025-03-12T00:00:00Z"}
        """;
    HttpResponse<Buffer> loaded = post("/api/records?wait=true", later, "application/jsonl");
    assertEquals(201, loaded.statusCode(), loaded.bodyAsString());
    Map<String, JsonObject> after = verdicts(backtest("?load=false&asOf=" + asOf).getString("backtestId"));
    for (String s : List.of("S-1", "S-2", "S-3", "S-4", "S-5")) {
      assertEquals(before.get(s).getString("outcome"), after.get(s).getString("outcome"), s);
      assertEquals(before.get(s).getDouble("riskScore"), after.get(s).getDouble("riskScore"),
          s + ": as of " + asOf + " before " + before.get(s).encode() + " after " + after.get(s).encode());
      assertEquals(before.get(s).getJsonArray("signals"), after.get(s).getJsonArray("signals"), s);
    }
    // the same records do count once the decision time is after them (so the comparison above could fail)
    Map<String, JsonObject> later2 = verdicts(backtest("?load=false&asOf=2025-03-20T00:00:00Z")
        .getString("backtestId"));
    assertTrue(later2.get("S-3").getDouble("riskScore") > after.get("S-3").getDouble("riskScore"),
        "S-3 as of 03-20: " + later2.get("S-3").encode() + " vs as of 03-04: " + after.get("S-3").encode());
  }
}
