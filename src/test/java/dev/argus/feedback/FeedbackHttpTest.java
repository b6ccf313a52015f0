package dev.argus.feedback;

import dev.argus.bus.Addresses;
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

import java.util.List;
import java.util.UUID;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feedback over real HTTP against the whole service (real SQLite file, the decision service deciding on a loaded
 * seller, the agent answering a chat). Hand-computed queue and calibration figures are in {@link FeedbackVerticleTest}.
 */
class FeedbackHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  private static String decisionId;

  @BeforeAll
  static void start() {
    // Netty's first pooled buffer initialises its JFR event classes (seconds on a loaded 2-core machine, seen as a
    // blocked event loop at the test client's first request): done once here, on the test thread
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("feedback", "minLabels", 4)
        .with("feedback", "refitEvery", 2);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    String seller = "{\"kind\":\"seller\",\"id\":\"S-FB1\",\"createdAt\":\"2024-01-01T00:00:00Z\","
        + "\"legalName\":\"Ava Adler\",\"country\":\"DE\",\"taxId\":\"TAX-FB1-777\"}";
    HttpResponse<Buffer> load = await(client.post("/api/records?wait=true").putHeader("Content-Type",
        "application/jsonl").sendBuffer(Buffer.buffer(seller)));
    assertEquals(201, load.statusCode(), load.bodyAsString());
    JsonObject d = await(new dev.argus.http.Bus(vertx, 60_000).request(Addresses.DECIDE_ONBOARDING,
        new JsonObject().put("sellerId", "S-FB1").put("asOf", "2025-06-01T00:00:00Z")));
    decisionId = d.getString("decisionId");
    assertNotNull(decisionId, d.encode());
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static JsonObject decision(String id, String profile, String outcome, double confidence, Double calibrated) {
    return new JsonObject().put("decisionId", id).put("runId", "run-" + id).put("profile", profile)
        .put("subjectId", "S-" + id).put("outcome", outcome).put("riskScore", 80).put("confidence", confidence)
        .put("calibratedConfidence", calibrated).put("status", "FINAL").put("createdAt", "2026-01-01T00:00:00Z");
  }

  /** Publishes decisions as the decision service does and waits until feedback has them (the queue shows them). */
  static void announce(String profile, JsonObject... decisions) {
    for (JsonObject d : decisions) {
      vertx.eventBus().publish(Addresses.DECISIONS_CREATED, d);
    }
    long deadline = System.currentTimeMillis() + 10_000;
    while (queue(profile, 500).size() < decisions.length) {
      assertTrue(System.currentTimeMillis() < deadline, "decisions were not indexed");
      sleep(20);
    }
  }

  static JsonArray queue(String profile, int limit) {
    HttpResponse<Buffer> r = get("/api/feedback/queue?profile=" + profile + "&limit=" + limit);
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject().getJsonArray("items");
  }

  static HttpResponse<Buffer> post(JsonObject body) {
    return await(client.post("/api/feedback").putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()));
  }

  static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  static JsonObject verdict(String decisionId, String label, String reason) {
    return new JsonObject().put("decisionId", decisionId).put("label", label).put("reason", reason)
        .put("analyst", "ana");
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static String profile() {
    return "p" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void aVerdictOnARealDecisionIsStoredAndLeavesTheQueue() {
    JsonObject d = await(new dev.argus.http.Bus(vertx, 10_000).request(Addresses.DECISIONS_GET,
        new JsonObject().put("id", decisionId)));
    String p = d.getString("profile");
    assertEquals("seller_onboarding", p);
    assertEquals("raw", d.getJsonObject("calibration").getString("calibratorVersion"),
        "feedback answered: no calibrator fitted yet, calibrated = raw");
    long deadline = System.currentTimeMillis() + 10_000;
    while (!ids(queue(p, 500)).contains(decisionId)) {
      assertTrue(System.currentTimeMillis() < deadline, "the decision was not indexed from argus.decisions.created");
      sleep(20);
    }
    String wrong = "APPROVE".equals(d.getString("outcome")) ? "REJECT" : "APPROVE";
    HttpResponse<Buffer> r = post(verdict(decisionId, "incorrect", "APPROVE".equals(d.getString("outcome"))
        ? "false_negative" : "false_positive").put("trueOutcome", wrong.toLowerCase())
        .put("comment", "mule account, see case C-9"));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject fb = r.bodyAsJsonObject().getJsonObject("feedback");
    assertEquals("incorrect", fb.getString("label"));
    assertEquals(wrong, fb.getString("trueOutcome"));
    assertEquals(p, fb.getString("profile"));
    assertEquals(d.getDouble("confidence"), fb.getDouble("confidence"), 1e-12, "the decision's raw confidence");
    assertEquals("/api/feedback?decisionId=" + decisionId, r.getHeader("Location"));
    assertTrue(!ids(queue(p, 500)).contains(decisionId), "labelled: out of the queue");
    JsonArray stored = get("/api/feedback?decisionId=" + decisionId).bodyAsJsonObject().getJsonArray("items");
    assertEquals(1, stored.size());
    assertEquals("mule account, see case C-9", stored.getJsonObject(0).getString("comment"));
    JsonObject report = get("/api/calibration?profile=" + p).bodyAsJsonObject();
    assertTrue(report.getInteger("labels") >= 1, "this verdict counts (other tests label decisions of this profile too)");
    assertEquals("raw", await(new dev.argus.http.Bus(vertx, 5000).request(Addresses.CALIBRATION_APPLY,
        new JsonObject().put("profile", p).put("confidence", 0.7))).getString("calibratorVersion"));
  }

  @Test
  void badVerdictsAreRefusedAndWriteNothing() {
    String id = decisionId;
    JsonObject d = await(new dev.argus.http.Bus(vertx, 10_000).request(Addresses.DECISIONS_GET,
        new JsonObject().put("id", id)));
    String outcome = d.getString("outcome");
    String other = "APPROVE".equals(outcome) ? "REJECT" : "APPROVE";
    int before = get("/api/feedback?decisionId=" + id).bodyAsJsonObject().getJsonArray("items").size();
    assertError(post(new JsonObject().put("decisionId", id).put("label", "correct").put("reason", "good_decision")),
        400, "missing_field");
    assertError(post(verdict(id, "correct", "good_decision").put("runId", "r-1")), 400, "invalid_target");
    assertError(post(verdict(id, "maybe", "good_decision")), 400, "invalid_field");
    assertError(post(verdict(id, "correct", "because")), 400, "invalid_field");
    assertError(post(verdict(id, "correct", "false_positive")), 400, "inconsistent_feedback");
    assertError(post(verdict(id, "incorrect", "good_decision")), 400, "inconsistent_feedback");
    assertError(post(verdict(id, "correct", "good_decision").put("lable", "x")), 400, "unknown_field");
    assertError(post(verdict(id, "correct", "good_decision").put("rating", 5)), 400, "invalid_field");
    assertError(post(verdict(id, "correct", "good_decision").put("comment", "x".repeat(4001))), 400, "field_too_long");
    assertError(post(verdict(id, "incorrect", "other").put("trueOutcome", "BLOCK")), 400, "invalid_field");
    assertError(post(verdict(id, "incorrect", "other").put("trueOutcome", outcome)), 400, "inconsistent_feedback");
    assertError(post(verdict(id, "correct", "good_decision").put("trueOutcome", other)), 400, "inconsistent_feedback");
    assertError(post(verdict("D-nope", "correct", "good_decision")), 404, "unknown_decision");
    assertError(post(new JsonObject().put("runId", "no-such-run").put("rating", 3).put("analyst", "ana")), 404,
        "unknown_run");
    assertError(post(new JsonObject().put("runId", "r").put("analyst", "ana")), 400, "missing_field");
    assertError(await(client.post("/api/feedback").putHeader("Content-Type", "text/plain")
        .sendBuffer(Buffer.buffer("correct"))), 415, "unsupported_media_type");
    assertError(await(client.post("/api/feedback").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer("{\"decisionId\":"))), 400, "invalid_json");
    assertError(post(verdict(id, "correct", "good_decision").put("pad", "x".repeat(20_000))), 413, "payload_too_large");
    assertError(get("/api/feedback/queue?limit=0"), 400, "invalid_parameter");
    assertError(get("/api/feedback?decisionId=a&runId=b"), 400, "invalid_target");
    assertEquals(before, get("/api/feedback?decisionId=" + id).bodyAsJsonObject().getJsonArray("items").size(),
        "nothing was written");
  }

  @Test
  void chatAnswersTakeARatingAndStatsCountEverything() {
    JsonObject started = await(new dev.argus.http.Bus(vertx, 30_000).request(Addresses.AGENT_RUN_START, new JsonObject().put("question", "What is the refund policy?")));
    String runId = started.getString("runId");
    assertNotNull(runId);
    String analyst = "rater-" + UUID.randomUUID().toString().substring(0, 6);
    HttpResponse<Buffer> r = post(new JsonObject().put("runId", runId).put("rating", 4).put("comment", "clear")
        .put("analyst", analyst));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    assertEquals("assistant", r.bodyAsJsonObject().getJsonObject("feedback").getString("profile"));
    r = post(new JsonObject().put("runId", runId).put("rating", 1).put("label", "incorrect")
        .put("reason", "missing_evidence").put("analyst", analyst));
    assertEquals(201, r.statusCode(), r.bodyAsString());

    JsonObject stats = get("/api/feedback/stats").bodyAsJsonObject();
    JsonObject mine = stats.getJsonArray("byAnalyst").stream().map(JsonObject.class::cast)
        .filter(x -> analyst.equals(x.getString("analyst"))).findFirst().orElseThrow();
    assertEquals(2, mine.getInteger("count"));
    assertEquals(1, mine.getInteger("incorrect"));
    assertEquals(0.0, mine.getDouble("accuracy"), 1e-12, "0 of 1 labelled right");
    assertEquals(2.5, mine.getDouble("meanRating"), 1e-9, "(4 + 1) / 2");
    assertTrue(stats.getJsonObject("last24h").getInteger("count") >= 2);
    assertTrue(stats.getJsonObject("total").getInteger("count") >= stats.getJsonObject("last24h").getInteger("count"));
    assertTrue(stats.getJsonArray("byReason").stream().map(JsonObject.class::cast)
        .anyMatch(x -> "missing_evidence".equals(x.getString("reason"))));
    assertEquals(5, stats.getJsonObject("accuracyByConfidence").getJsonArray("buckets").size());
  }

  @Test
  void aClosedCaseLabelsTheUnlabelledDecisionsAboutItsSubjects() {
    String p = profile();
    String a = "SA" + p;
    String b = "SB" + p;
    announce(p, decision("K1-" + p, p, "REJECT", 0.7, null).put("subjectId", a),
        decision("K2-" + p, p, "APPROVE", 0.8, null).put("subjectId", b),
        decision("K3-" + p, p, "REVIEW", 0.5, null).put("subjectId", a),
        decision("K4-" + p, p, "APPROVE", 0.6, null).put("subjectId", b));
    // two real decisions about seller S-FB2: an analyst labels X; the case must not overwrite that, and labels Y
    String seller = "{\"kind\":\"seller\",\"id\":\"S-FB2\",\"createdAt\":\"2024-01-01T00:00:00Z\","
        + "\"legalName\":\"Bo Berg\",\"country\":\"DE\",\"taxId\":\"TAX-FB2-777\"}";
    assertEquals(201, await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(seller))).statusCode());
    dev.argus.http.Bus bus = new dev.argus.http.Bus(vertx, 60_000);
    JsonObject x = await(bus.request(Addresses.DECIDE_ONBOARDING, new JsonObject().put("sellerId", "S-FB2")
        .put("asOf", "2025-06-01T00:00:00Z")));
    JsonObject y = await(bus.request(Addresses.DECIDE_ONBOARDING, new JsonObject().put("sellerId", "S-FB2")
        .put("asOf", "2025-06-01T00:00:00Z")));
    // decisions reach feedback over the published argus.decisions.created, after decide has replied: wait until y is
    // indexed, or a case closed before that would find nothing to label (cases label only decisions already known)
    long indexed = System.currentTimeMillis() + 30_000;
    while (!ids(queue(y.getString("profile"), 500)).contains(y.getString("decisionId"))) {
      assertTrue(System.currentTimeMillis() < indexed, "decision " + y.getString("decisionId") + " was not indexed");
      sleep(20);
    }
    assertEquals(201, post(verdict(x.getString("decisionId"), "correct", "good_decision")).statusCode());
    String open = "{\"kind\":\"case\",\"id\":\"C-open-" + p + "\",\"subjectIds\":[\"" + a + "\"],"
        + "\"outcome\":\"pending\",\"summary\":\"under review\",\"openedAt\":\"2026-01-02T00:00:00Z\"}";
    String closed = "{\"kind\":\"case\",\"id\":\"C-" + p + "\",\"subjectIds\":[\"" + a + "\",\"" + b + "\",\"S-FB2\"],"
        + "\"outcome\":\"fraud\",\"summary\":\"ring confirmed\",\"openedAt\":\"2026-01-02T00:00:00Z\","
        + "\"closedAt\":\"2026-01-09T00:00:00Z\"}";
    HttpResponse<Buffer> r = await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(open + "\n" + closed)));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    long deadline = System.currentTimeMillis() + 20_000;
    while (queue(p, 10).size() > 1) {
      assertTrue(System.currentTimeMillis() < deadline, "the case labelled nothing: " + queue(p, 10).encode());
      sleep(50);
    }
    assertEquals(List.of("K3-" + p), ids(queue(p, 10)), "a REVIEW is neither right nor wrong about the case");
    JsonObject k1 = get("/api/feedback?decisionId=K1-" + p).bodyAsJsonObject().getJsonArray("items").getJsonObject(0);
    assertEquals("correct", k1.getString("label"), "REJECT of a confirmed fraud");
    assertEquals("case", k1.getString("source"));
    assertEquals("case:C-" + p, k1.getString("analyst"));
    JsonObject k2 = get("/api/feedback?decisionId=K2-" + p).bodyAsJsonObject().getJsonArray("items").getJsonObject(0);
    assertEquals("incorrect", k2.getString("label"), "APPROVE of a confirmed fraud");
    assertEquals("false_negative", k2.getString("reason"));
    assertEquals("REJECT", k2.getString("trueOutcome"));
    JsonArray xs = get("/api/feedback?decisionId=" + x.getString("decisionId")).bodyAsJsonObject()
        .getJsonArray("items");
    assertEquals(1, xs.size(), "the analyst's label stands");
    assertEquals("ana", xs.getJsonObject(0).getString("analyst"));
    JsonArray ys = get("/api/feedback?decisionId=" + y.getString("decisionId")).bodyAsJsonObject()
        .getJsonArray("items");
    while (ys.isEmpty() && !"REVIEW".equals(y.getString("outcome")) && System.currentTimeMillis() < deadline) {
      sleep(50);
      ys = get("/api/feedback?decisionId=" + y.getString("decisionId")).bodyAsJsonObject().getJsonArray("items");
    }
    if ("REVIEW".equals(y.getString("outcome"))) {
      assertEquals(0, ys.size(), "a REVIEW is left unlabelled");
    } else {
      assertEquals(1, ys.size(), "the case labelled the other decision about S-FB2");
      assertEquals("REJECT".equals(y.getString("outcome")) ? "correct" : "incorrect", ys.getJsonObject(0)
          .getString("label"));
    }
  }

  private static List<String> ids(JsonArray items) {
    return items.stream().map(o -> ((JsonObject) o).getString("decisionId")).toList();
  }

  private static void assertError(HttpResponse<Buffer> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    JsonObject body = r.bodyAsJsonObject();
    assertEquals(code, body.getString("code"), r.bodyAsString());
    assertNotNull(body.getString("error"));
  }
}
