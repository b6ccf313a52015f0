package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.FeedbackConf;
import dev.argus.http.Bus;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The feedback verticle on its own (real SQLite file, real bus), with decisions of hand-chosen confidences announced on
 * {@code argus.decisions.created}. No decision service is deployed, so a verdict's decision is the one feedback indexed
 * (the whole-service path through {@code argus.decisions.get} is {@link FeedbackHttpTest}). Refits at 4 labels, then
 * every 2.
 */
class FeedbackVerticleTest {

  private static Vertx vertx;
  private static Database db;
  private static Bus bus;
  private static final List<JsonObject> refits = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    db = await(Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db")));
    await(vertx.deployVerticle(new FeedbackVerticle(new FeedbackConf(4, 2, 2000, 500, true, true), FeedbackStores.create(db))));
    bus = new Bus(vertx, 10_000);
    vertx.eventBus().<JsonObject>consumer(Addresses.CALIBRATION_REFITTED, msg -> refits.add(msg.body()));
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
  }

  static JsonObject decision(String id, String profile, String outcome, double confidence, Double calibrated) {
    return new JsonObject().put("decisionId", id).put("runId", "run-" + id).put("profile", profile)
        .put("subjectId", "S-" + id).put("outcome", outcome).put("riskScore", 80).put("confidence", confidence)
        .put("calibratedConfidence", calibrated).put("status", "FINAL").put("createdAt", "2026-01-01T00:00:00Z")
        .put("calibration", new JsonObject().put("calibrated", calibrated).put("calibratorVersion", "raw"));
  }

  static void announce(String profile, JsonObject... decisions) {
    for (JsonObject d : decisions) {
      vertx.eventBus().publish(Addresses.DECISIONS_CREATED, d);
    }
    long deadline = System.currentTimeMillis() + 10_000;
    while (queue(profile, 500).size() < decisions.length) {
      assertTrue(System.currentTimeMillis() < deadline, "decisions were not indexed");
      FeedbackHttpTest.sleep(20);
    }
  }

  static JsonArray queue(String profile, int limit) {
    return await(bus.request(Addresses.FEEDBACK_QUEUE, new JsonObject().put("profile", profile).put("limit", limit)))
        .getJsonArray("items");
  }

  static JsonObject submit(JsonObject body) {
    return await(bus.request(Addresses.FEEDBACK_SUBMIT, body));
  }

  static JsonObject verdict(String decisionId, String label, String reason) {
    return new JsonObject().put("decisionId", decisionId).put("label", label).put("reason", reason).put("analyst", "ana");
  }

  static JsonObject apply(String profile, double confidence) {
    return await(bus.request(Addresses.CALIBRATION_APPLY, new JsonObject().put("profile", profile)
        .put("confidence", confidence)));
  }

  static String profile() {
    return "p" + UUID.randomUUID().toString().substring(0, 8);
  }

  static List<String> ids(JsonArray items) {
    return items.stream().map(o -> ((JsonObject) o).getString("decisionId")).toList();
  }

  @Test
  void anAnnouncementThatIsNotADecisionFailsQuietlyAndTheNextIsIndexed() {
    List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(unhandled::add);
    try {
      // was: DecisionRef threw inside the consumer, an unhandled exception on the event loop
      vertx.eventBus().publish(Addresses.DECISIONS_CREATED, new JsonObject().put("n", 1));
      vertx.eventBus().publish(Addresses.DECISIONS_CREATED,
          decision("D-after-not-a-decision", "seller_onboarding", "approve", 0.7, null));
      long deadline = System.currentTimeMillis() + 10_000;
      while (!ids(queue("seller_onboarding", 500)).contains("D-after-not-a-decision")) {
        assertTrue(System.currentTimeMillis() < deadline, "the decision after it was not indexed");
        FeedbackHttpTest.sleep(20);
      }
      assertEquals(List.of(), unhandled);
    } finally {
      vertx.exceptionHandler(null);
    }
  }

  @Test
  void theQueueIsUnlabelledDecisionsLowestCalibratedConfidenceFirst() {
    String p = profile();
    announce(p, decision("D1-" + p, p, "REJECT", 0.9, 0.7), decision("D2-" + p, p, "APPROVE", 0.8, 0.4),
        decision("D3-" + p, p, "REVIEW", 0.6, null));
    // lowest calibrated (else raw) first: D2 .4, D3 .6 (raw), D1 .7
    assertEquals(List.of("D2-" + p, "D3-" + p, "D1-" + p), ids(queue(p, 10)));
    assertEquals(List.of("D2-" + p), ids(queue(p, 1)));
    JsonObject r = submit(verdict("D2-" + p, "incorrect", "false_negative").put("trueOutcome", "REJECT"));
    assertEquals(0.8, r.getJsonObject("feedback").getDouble("confidence"), 1e-12, "the decision's raw confidence");
    assertEquals(List.of("D3-" + p, "D1-" + p), ids(queue(p, 10)));
  }

  @Test
  void labelsRefitTheProfilesCalibratorAndApplyUsesIt() {
    String p = profile();
    announce(p, decision("C1-" + p, p, "REJECT", 0.9, null), decision("C2-" + p, p, "REJECT", 0.9, null),
        decision("C3-" + p, p, "APPROVE", 0.3, null), decision("C4-" + p, p, "APPROVE", 0.3, null),
        decision("C5-" + p, p, "APPROVE", 0.95, null), decision("C6-" + p, p, "REJECT", 0.2, null));
    JsonObject before = apply(p, 0.9);
    assertEquals(0.9, before.getDouble("calibrated"), 1e-12, "no calibrator yet: calibrated = raw");
    assertEquals("raw", before.getString("calibratorVersion"));
    assertEquals(0, before.getInteger("version"));

    submit(verdict("C1-" + p, "correct", "good_decision"));
    submit(verdict("C2-" + p, "incorrect", "false_positive"));
    submit(verdict("C3-" + p, "correct", "good_decision"));
    JsonObject fourth = submit(verdict("C4-" + p, "incorrect", "false_negative"));
    // the 4th label reaches minLabels: version 1, fitted on (.9: right, wrong) and (.3: right, wrong)
    assertEquals(1, fourth.getJsonObject("calibration").getInteger("version"));
    assertEquals(4, fourth.getJsonObject("calibration").getInteger("fittedOnLabels"));
    // PAV: .3 -> 1/2 (tie block), .9 -> 1/2 (not below it, kept apart): every confidence maps to 0.5
    assertEquals(0.5, apply(p, 0.9).getDouble("calibrated"), 1e-12);
    assertEquals(0.5, apply(p, 0.6).getDouble("calibrated"), 1e-12);
    assertEquals("v1", apply(p, 0.6).getString("calibratorVersion"));

    JsonObject report = await(bus.request(Addresses.CALIBRATION_GET, new JsonObject().put("profile", p)));
    assertEquals(4, report.getInteger("labels"));
    // raw: bucket [.2,.4) conf .3 acc .5 gap .2; bucket [.8,1] conf .9 acc .5 gap .4 -> (2*.2 + 2*.4) / 4 = 0.3
    assertEquals(0.3, report.getJsonObject("raw").getDouble("ece"), 1e-12);
    assertEquals(0.0, report.getJsonObject("calibrated").getDouble("ece"), 1e-12, "0.5 everywhere, half right");
    assertEquals(2, report.getJsonObject("raw").getJsonArray("reliabilityDiagram").size());
    assertEquals(1, report.getJsonObject("calibrator").getInteger("version"));
    assertEquals(4, report.getJsonObject("calibrator").getInteger("fittedOnLabels"));
    assertEquals(6, report.getInteger("nextRefitAtLabels"));

    // one more label: not yet due (5 - 4 < 2); the sixth refits: version 2
    assertEquals(1, submit(verdict("C5-" + p, "correct", "good_decision")).getJsonObject("calibration")
        .getInteger("version"));
    assertEquals(2, submit(verdict("C6-" + p, "incorrect", "false_positive")).getJsonObject("calibration")
        .getInteger("version"));
    // sorted: .2:0 | .3:1,0 (1/2) | .9:1,0 (1/2) | .95:1 -> blocks .2->0, .3->.5, .9->.5, .95->1
    assertEquals(0.0, apply(p, 0.1).getDouble("calibrated"), 1e-12);
    assertEquals(0.25, apply(p, 0.25).getDouble("calibrated"), 1e-12, "halfway from (.2, 0) to (.3, .5)");
    assertEquals(0.75, apply(p, 0.925).getDouble("calibrated"), 1e-12, "halfway from (.9, .5) to (.95, 1)");
    assertTrue(refits.stream().anyMatch(e -> p.equals(e.getString("profile")) && e.getInteger("version") == 2));
    report = await(bus.request(Addresses.CALIBRATION_GET, new JsonObject().put("profile", p)));
    assertEquals(List.of(2, 1), report.getJsonArray("versions").stream()
        .map(v -> ((JsonObject) v).getInteger("version")).toList());
    JsonArray profiles = await(bus.request(Addresses.CALIBRATION_GET, new JsonObject())).getJsonArray("profiles");
    assertTrue(profiles.stream().map(JsonObject.class::cast).anyMatch(x -> p.equals(x.getString("profile"))
        && x.getInteger("labels") == 6 && x.getInteger("calibratorVersion") == 2));
  }

  @Test
  void aCalibratorSurvivesARestart() {
    String p = profile();
    announce(p, decision("R1-" + p, p, "REJECT", 0.8, null), decision("R2-" + p, p, "REJECT", 0.8, null),
        decision("R3-" + p, p, "REJECT", 0.8, null), decision("R4-" + p, p, "REJECT", 0.8, null));
    submit(verdict("R1-" + p, "correct", "good_decision"));
    submit(verdict("R2-" + p, "incorrect", "false_positive"));
    submit(verdict("R3-" + p, "incorrect", "false_positive"));
    submit(verdict("R4-" + p, "incorrect", "false_positive"));
    assertEquals(0.25, apply(p, 0.8).getDouble("calibrated"), 1e-12, "1 of 4 right at .8");
    // a second verticle on the same database loads the newest calibrator of each profile at start
    Vertx other = Vertx.vertx();
    try {
      Database db2 = await(Database.sqlite(other, Path.of(db.toString().substring("sqlite:".length()))));
      await(other.deployVerticle(new FeedbackVerticle(new FeedbackConf(4, 2, 2000, 500, true, true),
          FeedbackStores.create(db2))));
      JsonObject r = await(other.eventBus().<JsonObject>request(Addresses.CALIBRATION_APPLY,
          new JsonObject().put("profile", p).put("confidence", 0.8)).map(m -> m.body()));
      assertEquals(0.25, r.getDouble("calibrated"), 1e-12);
      assertEquals("v1", r.getString("calibratorVersion"));
    } finally {
      await(other.close());
    }
  }

  @Test
  void applyAndQueueCheckTheirInput() {
    ApiException e = assertThrows(ApiException.class, () -> apply("seller_onboarding", 1.5));
    assertEquals(400, e.status());
    assertEquals("invalid_field", e.code());
    assertEquals("missing_field", assertThrows(ApiException.class, () -> await(bus.request(
        Addresses.CALIBRATION_APPLY, new JsonObject().put("confidence", 0.5)))).code());
    assertEquals("invalid_field", assertThrows(ApiException.class, () -> apply("a b", 0.5)).code());
    assertEquals(400, assertThrows(ApiException.class, () -> queue(null, 0)).status());
    assertEquals("unknown_decision", assertThrows(ApiException.class, () -> submit(verdict("D-none", "correct",
        "good_decision"))).code());
  }

  @Test
  void statsSplitByProfileAndConfidenceBucket() {
    String p = profile();
    announce(p, decision("S1-" + p, p, "BLOCK", 0.1, null), decision("S2-" + p, p, "BLOCK", 0.15, null),
        decision("S3-" + p, p, "ALLOW", 0.5, null));
    submit(verdict("S1-" + p, "correct", "good_decision"));
    submit(verdict("S2-" + p, "incorrect", "false_positive").put("trueOutcome", "ALLOW"));
    submit(verdict("S3-" + p, "correct", "good_decision"));
    JsonObject stats = await(bus.request(Addresses.FEEDBACK_STATS, new JsonObject()));
    JsonObject byProfile = stats.getJsonArray("byProfile").stream().map(JsonObject.class::cast)
        .filter(x -> p.equals(x.getString("profile"))).findFirst().orElseThrow();
    assertEquals(3, byProfile.getInteger("count"));
    assertEquals(2.0 / 3, byProfile.getDouble("accuracy"), 1e-12);
    assertEquals(3, stats.getJsonObject("labelledDecisions").getInteger(p));
    JsonArray buckets = stats.getJsonObject("accuracyByConfidence").getJsonArray("buckets");
    assertEquals(5, buckets.size());
    assertTrue(buckets.getJsonObject(0).getInteger("count") >= 2, ".1 and .15 in the first bucket");
  }
}
