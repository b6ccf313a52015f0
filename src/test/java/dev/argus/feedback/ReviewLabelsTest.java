package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.http.Bus;
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

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Completed reviews become calibration labels, against the whole service: the real decision engine holds a seller on
 * the watchlist for review (REVIEW or REJECT, pending); a reviewer's reject, override
 * and escalation go through {@code POST /api/reviews/{id}}, and feedback hears {@code argus.reviews.completed}.
 */
class ReviewLabelsTest {

  static final String WORLD = """
      {"kind":"seller","id":"S-RV","createdAt":"2025-05-02T00:00:00Z","legalName":"Rex Vance","email":"rex@mule-rv.example","country":"FR","status":"active"}
      {"kind":"transaction","id":"T-RV-1","at":"2025-05-10T10:00:00Z","sellerId":"S-RV","amount":50,"currency":"EUR","status":"approved"}
      {"kind":"transaction","id":"T-RV-2","at":"2025-05-11T10:00:00Z","sellerId":"S-RV","amount":60,"currency":"EUR","status":"approved"}
      {"kind":"chargeback","id":"CB-RV-1","at":"2025-05-20T00:00:00Z","transactionId":"T-RV-2","amount":60,"reason":"fraud_unauthorized"}
      {"kind":"watchlist_entry","id":"W-RV","type":"email","value":"rex@mule-rv.example","reason":"fraud ring"}
      """;

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    HttpResponse<Buffer> load = await(client.post("/api/records?wait=true").putHeader("Content-Type",
        "application/jsonl").sendBuffer(Buffer.buffer(WORLD)));
    assertEquals(201, load.statusCode(), load.bodyAsString());
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  private static JsonObject decide() {
    JsonObject d = await(new Bus(vertx, 60_000).request(Addresses.DECIDE_ONBOARDING,
        new JsonObject().put("sellerId", "S-RV").put("asOf", "2025-06-01T00:00:00Z")));
    // a watchlisted seller is never approved (policy rule watchlist_exact_hit: at least REVIEW) and waits for a person
    assertTrue(List.of("REVIEW", "REJECT").contains(d.getString("outcome")), d.getString("outcome"));
    assertEquals("PENDING_REVIEW", d.getString("status"), d.getJsonArray("statusReasons").encode());
    return d;
  }

  private static JsonObject review(JsonObject decision, JsonObject action) {
    String reviewId = "rev-" + decision.getString("decisionId").substring(4);
    HttpResponse<Buffer> done = await(client.post("/api/reviews/" + reviewId).sendJsonObject(action
        .put("analyst", "rita")));
    assertEquals(200, done.statusCode(), done.bodyAsString());
    return done.bodyAsJsonObject().getJsonObject("decision");
  }

  private static JsonArray verdicts(String decisionId) {
    HttpResponse<Buffer> r = await(client.get("/api/feedback").addQueryParam("decisionId", decisionId).send());
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject().getJsonArray("items");
  }

  private static JsonObject waitForVerdict(String decisionId) {
    long deadline = System.currentTimeMillis() + 20_000;
    while (true) {
      JsonArray items = verdicts(decisionId);
      if (!items.isEmpty()) {
        return items.getJsonObject(0);
      }
      assertTrue(System.currentTimeMillis() < deadline, "no label for " + decisionId);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void aReviewThatKeepsTheOutcomeLabelsItCorrectAndAnOverrideLabelsItAFalsePositive() {
    JsonObject kept = decide();
    JsonObject overridden = decide();
    JsonObject escalated = decide();
    review(escalated, new JsonObject().put("action", "escalate").put("reason", "needs a second look"));
    JsonObject correction = review(kept, new JsonObject().put("action", "reject").put("reason", "watchlist hit confirmed"));
    review(overridden, new JsonObject().put("action", "override").put("outcome", "APPROVE")
        .put("reason", "the watchlist entry is a namesake"));

    JsonObject right = waitForVerdict(kept.getString("decisionId"));
    assertEquals("correct", right.getString("label"));
    assertEquals("good_decision", right.getString("reason"));
    assertEquals("REJECT", right.getString("trueOutcome"));
    assertEquals("review", right.getString("source"));
    assertEquals("rita", right.getString("analyst"));
    assertEquals(kept.getDouble("confidence"), right.getDouble("confidence"), 1e-12,
        "the label carries the reviewed decision's raw confidence");

    JsonObject wrong = waitForVerdict(overridden.getString("decisionId"));
    assertEquals("incorrect", wrong.getString("label"));
    assertEquals("false_positive", wrong.getString("reason"));
    assertEquals("APPROVE", wrong.getString("trueOutcome"));
    assertEquals("review", wrong.getString("source"));

    // the escalation was completed first; the two labels after it are in: it labelled nothing
    assertTrue(verdicts(escalated.getString("decisionId")).isEmpty(), "an escalation is not a verdict");
    // a correction is a person's verdict, not a decision to calibrate: never queued, never labelled
    assertTrue(verdicts(correction.getString("decisionId")).isEmpty());
    HttpResponse<Buffer> queue = await(client.get("/api/feedback/queue?profile=seller_onboarding&limit=500").send());
    String ids = queue.bodyAsJsonObject().getJsonArray("items").encode();
    assertFalse(ids.contains(correction.getString("decisionId")), ids);
    assertFalse(ids.contains(kept.getString("decisionId")), "labelled decisions leave the queue: " + ids);
    assertTrue(ids.contains(escalated.getString("decisionId")), ids);
    // the calibration data counts the two review labels: one right, one wrong
    JsonObject calibration = await(client.get("/api/calibration?profile=seller_onboarding").send()).bodyAsJsonObject();
    assertEquals(2, calibration.getInteger("labels"), calibration.encodePrettily());
  }

  @Test
  void feedbackOnACorrectionIsKeptAndLabelsNothing() {
    JsonObject reviewed = decide();
    JsonObject correction = review(reviewed, new JsonObject().put("action", "reject").put("reason", "confirmed"));
    waitForVerdict(reviewed.getString("decisionId"));
    int labelsBefore = await(client.get("/api/calibration?profile=seller_onboarding").send()).bodyAsJsonObject()
        .getInteger("labels");

    HttpResponse<Buffer> posted = await(client.post("/api/feedback").sendJsonObject(new JsonObject()
        .put("decisionId", correction.getString("decisionId")).put("label", "correct").put("reason", "good_decision")
        .put("comment", "well caught").put("analyst", "olga")));
    assertEquals(201, posted.statusCode(), posted.bodyAsString());
    assertFalse(posted.bodyAsJsonObject().containsKey("calibration"), "a correction calibrates nothing");

    JsonArray onCorrection = verdicts(correction.getString("decisionId"));
    assertEquals(1, onCorrection.size(), onCorrection.encode());
    assertEquals("olga", onCorrection.getJsonObject(0).getString("analyst"));
    assertEquals("well caught", onCorrection.getJsonObject(0).getString("comment"));
    // the reviewed decision keeps the reviewer's label, and the calibration data did not grow
    JsonArray onReviewed = verdicts(reviewed.getString("decisionId"));
    assertEquals(1, onReviewed.size(), onReviewed.encode());
    assertEquals("review", onReviewed.getJsonObject(0).getString("source"));
    assertEquals(labelsBefore, await(client.get("/api/calibration?profile=seller_onboarding").send())
        .bodyAsJsonObject().getInteger("labels"));
  }
}
