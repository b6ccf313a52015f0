package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
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
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Feedback and calibration over real HTTP against the whole service (real SQLite file). No decision service is deployed
 * here, so decisions are announced the way it announces them: published on {@code argus.decisions.created}.
 */
class FeedbackHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  private static final List<JsonObject> refits = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("feedback", "minLabels", 4)
        .with("feedback", "refitEvery", 2);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    vertx.eventBus().<JsonObject>consumer(Addresses.CALIBRATION_REFITTED, msg -> refits.add(msg.body()));
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
  void aVerdictIsStoredAndLeavesTheQueue() {
    String p = profile();
    announce(p, decision("D1-" + p, p, "REJECT", 0.9, 0.7), decision("D2-" + p, p, "APPROVE", 0.8, 0.4),
        decision("D3-" + p, p, "REVIEW", 0.6, null));
    // lowest calibrated (else raw) first: D2 .4, D3 .6 (raw), D1 .7
    assertEquals(List.of("D2-" + p, "D3-" + p, "D1-" + p), ids(queue(p, 10)));
    assertEquals(List.of("D2-" + p), ids(queue(p, 1)));

    HttpResponse<Buffer> r = post(verdict("D2-" + p, "incorrect", "false_negative").put("trueOutcome", "reject")
        .put("comment", "mule account, see case C-9"));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject fb = r.bodyAsJsonObject().getJsonObject("feedback");
    assertEquals("incorrect", fb.getString("label"));
    assertEquals("false_negative", fb.getString("reason"));
    assertEquals("REJECT", fb.getString("trueOutcome"));
    assertEquals(p, fb.getString("profile"));
    assertEquals(0.8, fb.getDouble("confidence"), 1e-12, "the decision's raw confidence");
    assertEquals("/api/feedback?decisionId=D2-" + p, r.getHeader("Location"));
    assertEquals(List.of("D3-" + p, "D1-" + p), ids(queue(p, 10)));

    JsonArray stored = get("/api/feedback?decisionId=D2-" + p).bodyAsJsonObject().getJsonArray("items");
    assertEquals(1, stored.size());
    assertEquals("mule account, see case C-9", stored.getJsonObject(0).getString("comment"));
  }

  @Test
  void badVerdictsAreRefusedAndWriteNothing() {
    String p = profile();
    announce(p, decision("B1-" + p, p, "REJECT", 0.9, null));
    String id = "B1-" + p;
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
    assertError(post(verdict(id, "incorrect", "false_positive").put("trueOutcome", "BLOCK")), 400, "invalid_field");
    assertError(post(verdict(id, "incorrect", "false_positive").put("trueOutcome", "REJECT")), 400,
        "inconsistent_feedback");
    assertError(post(verdict(id, "correct", "good_decision").put("trueOutcome", "APPROVE")), 400,
        "inconsistent_feedback");
    assertError(post(verdict("D-nope-" + p, "correct", "good_decision")), 404, "unknown_decision");
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
    assertEquals(1, queue(p, 10).size(), "nothing was labelled");
    assertEquals(0, get("/api/feedback?decisionId=" + id).bodyAsJsonObject().getJsonArray("items").size());
  }

  @Test
  void labelsRefitTheProfilesCalibratorAndApplyUsesIt() {
    String p = profile();
    announce(p, decision("C1-" + p, p, "REJECT", 0.9, null), decision("C2-" + p, p, "REJECT", 0.9, null),
        decision("C3-" + p, p, "APPROVE", 0.3, null), decision("C4-" + p, p, "APPROVE", 0.3, null),
        decision("C5-" + p, p, "APPROVE", 0.95, null), decision("C6-" + p, p, "REJECT", 0.2, null));
    JsonObject before = apply(p, 0.9);
    assertEquals(0.9, before.getDouble("calibrated"), 1e-12, "no calibrator yet: identity");
    assertEquals(0, before.getInteger("calibratorVersion"));

    assertEquals(201, post(verdict("C1-" + p, "correct", "good_decision")).statusCode());
    assertEquals(201, post(verdict("C2-" + p, "incorrect", "false_positive")).statusCode());
    assertEquals(201, post(verdict("C3-" + p, "correct", "good_decision")).statusCode());
    HttpResponse<Buffer> fourth = post(verdict("C4-" + p, "incorrect", "false_negative"));
    assertEquals(201, fourth.statusCode());
    // the 4th label reaches minLabels: version 1, fitted on (.9: right, wrong) and (.3: right, wrong)
    assertEquals(1, fourth.bodyAsJsonObject().getJsonObject("calibration").getInteger("version"));
    assertEquals(4, fourth.bodyAsJsonObject().getJsonObject("calibration").getInteger("fittedOnLabels"));
    // PAV: .3 -> 1/2 (tie block), .9 -> 1/2 (not below it, kept): every confidence maps to 0.5
    assertEquals(0.5, apply(p, 0.9).getDouble("calibrated"), 1e-12);
    assertEquals(0.5, apply(p, 0.6).getDouble("calibrated"), 1e-12);
    assertEquals(1, apply(p, 0.6).getInteger("calibratorVersion"));

    JsonObject report = get("/api/calibration?profile=" + p).bodyAsJsonObject();
    assertEquals(4, report.getInteger("labels"));
    // raw: bucket [.2,.4) conf .3 acc .5 gap .2; bucket [.8,1] conf .9 acc .5 gap .4 -> (2*.2 + 2*.4) / 4 = 0.3
    assertEquals(0.3, report.getJsonObject("raw").getDouble("ece"), 1e-12);
    assertEquals(0.0, report.getJsonObject("calibrated").getDouble("ece"), 1e-12, "0.5 everywhere, half right");
    assertEquals(2, report.getJsonObject("raw").getJsonArray("reliabilityDiagram").size());
    assertEquals(1, report.getJsonObject("calibrator").getInteger("version"));
    assertEquals(4, report.getJsonObject("calibrator").getInteger("fittedOnLabels"));
    assertEquals(6, report.getInteger("nextRefitAtLabels"));

    // one more label: not yet due (5 - 4 < 2); the sixth refits: version 2
    assertEquals(1, post(verdict("C5-" + p, "correct", "good_decision")).bodyAsJsonObject()
        .getJsonObject("calibration").getInteger("version"));
    assertEquals(2, post(verdict("C6-" + p, "incorrect", "false_positive")).bodyAsJsonObject()
        .getJsonObject("calibration").getInteger("version"));
    // sorted: .2:0 | .3:1,0 (1/2) | .9:1,0 (1/2) | .95:1 -> blocks .2->0, .3->.5, .9->.5, .95->1
    assertEquals(0.0, apply(p, 0.1).getDouble("calibrated"), 1e-12);
    assertEquals(0.25, apply(p, 0.25).getDouble("calibrated"), 1e-12, "halfway from (.2, 0) to (.3, .5)");
    assertEquals(0.75, apply(p, 0.925).getDouble("calibrated"), 1e-12, "halfway from (.9, .5) to (.95, 1)");
    assertTrue(refits.stream().anyMatch(e -> p.equals(e.getString("profile")) && e.getInteger("version") == 2));
    assertEquals(List.of(2, 1), get("/api/calibration?profile=" + p).bodyAsJsonObject().getJsonArray("versions")
        .stream().map(v -> ((JsonObject) v).getInteger("version")).toList());
    JsonArray profiles = get("/api/calibration").bodyAsJsonObject().getJsonArray("profiles");
    assertTrue(profiles.stream().map(JsonObject.class::cast).anyMatch(x -> p.equals(x.getString("profile"))
        && x.getInteger("labels") == 6 && x.getInteger("calibratorVersion") == 2));
  }

  @Test
  void applyChecksItsInput() {
    assertThrows(ApiException.class, () -> apply(null, 0.5));
    ApiException e = assertThrows(ApiException.class, () -> apply("onboarding", 1.5));
    assertEquals(400, e.status());
    assertEquals("invalid_field", e.code());
  }

  @Test
  void chatAnswersTakeARatingAndStatsCountEverything() {
    JsonObject started = await(app.main().services() == null ? null : new dev.argus.http.Bus(vertx, 30_000)
        .request(Addresses.AGENT_RUN_START, new JsonObject().put("question", "What is the refund policy?")));
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
  void statsSplitByProfileAndConfidenceBucket() {
    String p = profile();
    announce(p, decision("S1-" + p, p, "BLOCK", 0.1, null), decision("S2-" + p, p, "BLOCK", 0.15, null),
        decision("S3-" + p, p, "ALLOW", 0.5, null));
    post(verdict("S1-" + p, "correct", "good_decision"));
    post(verdict("S2-" + p, "incorrect", "false_positive").put("trueOutcome", "ALLOW"));
    post(verdict("S3-" + p, "correct", "good_decision"));
    JsonObject byProfile = get("/api/feedback/stats").bodyAsJsonObject().getJsonArray("byProfile").stream()
        .map(JsonObject.class::cast).filter(x -> p.equals(x.getString("profile"))).findFirst().orElseThrow();
    assertEquals(3, byProfile.getInteger("count"));
    assertEquals(2.0 / 3, byProfile.getDouble("accuracy"), 1e-12);
    assertEquals(3, get("/api/feedback/stats").bodyAsJsonObject().getJsonObject("labelledDecisions").getInteger(p));
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
    // an analyst already labelled K4: the case must not overwrite it
    assertEquals(201, post(verdict("K4-" + p, "correct", "good_decision")).statusCode());
    String open = "{\"kind\":\"case\",\"id\":\"C-open-" + p + "\",\"subjectIds\":[\"" + a + "\"],"
        + "\"outcome\":\"pending\",\"summary\":\"under review\",\"openedAt\":\"2026-01-02T00:00:00Z\"}";
    String closed = "{\"kind\":\"case\",\"id\":\"C-" + p + "\",\"subjectIds\":[\"" + a + "\",\"" + b + "\"],"
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
    JsonArray k4 = get("/api/feedback?decisionId=K4-" + p).bodyAsJsonObject().getJsonArray("items");
    assertEquals(1, k4.size(), "the analyst's label stands");
    assertEquals("ana", k4.getJsonObject(0).getString("analyst"));
  }

  private static JsonObject apply(String profile, double confidence) {
    return await(new dev.argus.http.Bus(vertx, 5000).request(Addresses.CALIBRATION_APPLY,
        new JsonObject().put("profile", profile).put("confidence", confidence)));
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
