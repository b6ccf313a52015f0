package dev.argus.decide;

import dev.argus.agent.SseClient;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.BlockedThreadGuard;
import dev.argus.testing.TestApp;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decisions on the running service (real SQLite file, real HTTP, real SSE client, the records capability answering
 * the tools), with the test scoring models of {@code src/test/resources/decide} whose figures are computed by hand,
 * and shadow version {@code v2} configured. The test transaction model plans two tools that are registered nowhere:
 * they fail, and the run re-plans.
 */
@ExtendWith(BlockedThreadGuard.class)
class DecisionServiceTest {

  static final Path CONF = Path.of("src", "test", "resources", "decide").toAbsolutePath();
  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  private static final List<JsonObject> created = new CopyOnWriteArrayList<>();
  private static final List<JsonObject> completed = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    // Netty's first pooled buffer initialises its JFR event classes (seconds on a loaded 2-core machine, seen as a
    // blocked event loop at the test client's first request): done once here, on the test thread
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("decide", "scoringDir", CONF.resolve("scoring").toString())
        .with("decide", "policiesDir", CONF.resolve("policies").toString())
        .with("decide", "shadowVersions", new JsonArray().add("v2"))
        // the feedback capability's calibrator stays off: a stand-in answers argus.calibration.apply in one test
        // (two consumers would take turns) and the others expect raw confidence
        .with("feedback", "applyCalibration", false);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    vertx.eventBus().<JsonObject>consumer(Addresses.DECISIONS_CREATED, m -> created.add(m.body()));
    vertx.eventBus().<JsonObject>consumer(Addresses.REVIEWS_COMPLETED, m -> completed.add(m.body()));
    HttpResponse<Buffer> load = await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(DecisionWorld.jsonl())));
    assertEquals(201, load.statusCode(), load.bodyAsString());
    assertEquals(0, load.bodyAsJsonObject().getInteger("failed"), load.bodyAsString());
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> post(String path, JsonObject body) {
    return await(client.post(path).putHeader("Content-Type", "application/json").sendJsonObject(body));
  }

  static JsonObject onboard(String sellerId) {
    HttpResponse<Buffer> r = post("/api/decisions/onboarding", new JsonObject().put("sellerId", sellerId)
        .put("asOf", DecisionWorld.AS_OF));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  static JsonObject signal(JsonObject d, String name) {
    return d.getJsonArray("signals").stream().map(o -> (JsonObject) o).filter(s -> name.equals(s.getString("name")))
        .findFirst().orElseThrow();
  }

  @Test
  void aCleanSellerIsApprovedOnItsOwn() {
    JsonObject d = onboard("S-OK");
    assertEquals("APPROVE", d.getString("outcome"), d.encodePrettily());
    assertEquals("FINAL", d.getString("status"), d.getJsonArray("statusReasons").encode());
    // every signal at its no-risk level: score 0; coverage 7/7 = 1; distance to 35 is 35 -> decisive;
    // confidence 1 * (0.5 + 0.5 * 1) = 1.0; no calibrator deployed: calibrated = raw
    assertEquals(0.0, d.getDouble("riskScore"));
    assertEquals(1.0, d.getDouble("confidence"));
    assertEquals(1.0, d.getDouble("calibratedConfidence"));
    assertEquals("raw", d.getJsonObject("calibration").getString("calibratorVersion"));
    assertEquals("test-onboarding-1", d.getString("scoringVersion"));
    assertEquals("policies-v1", d.getString("policyVersion"));
    assertEquals(517.0, signal(d, "account_age_days").getDouble("value"));  // 2024-01-01 .. 2025-06-01
    JsonArray tools = d.getJsonArray("tools");
    assertEquals(3, tools.size());
    for (Object o : tools) {
      JsonObject t = (JsonObject) o;
      assertTrue(t.getBoolean("success"), t.encode());
      assertEquals(16, t.getString("inputFingerprint").length());
      assertEquals(16, t.getString("outputFingerprint").length());
      assertEquals(DecisionWorld.AS_OF, t.getJsonObject("params").getString("asOf"), "every tool call gets asOf");
    }
    assertTrue(d.getJsonObject("reflection").getJsonArray("concerns").isEmpty());
    // no measured risk: the one reason says so, citing what was found as "nothing found" (0.1)
    JsonObject reason = d.getJsonArray("reasons").getJsonObject(0);
    assertEquals(0.1, reason.getJsonArray("citations").getJsonObject(0).getDouble("confidence"));
    JsonObject cons = d.getJsonObject("consensus");
    assertEquals("majority", cons.getString("strategy"));
    assertEquals(3, cons.getJsonArray("votes").size());
    assertTrue(cons.getJsonArray("votes").stream().map(o -> (JsonObject) o)
        .anyMatch(v -> v.getString("assessor").equals("network") && v.getBoolean("abstained")));
    JsonObject stored = get("/api/decisions/" + d.getString("decisionId")).bodyAsJsonObject();
    assertEquals(d.getString("outcome"), stored.getString("outcome"));
    assertNotNull(stored.getJsonObject("trace").getJsonArray("steps"));
    assertEquals(List.of("think", "plan", "act", "observe", "reflect", "consensus"), stored.getJsonObject("trace")
        .getJsonArray("steps").stream().map(o -> ((JsonObject) o).getString("phase")).toList());
  }

  @Test
  void aRiskySellerIsScoredAsComputedByHandAndWaitsForAPerson() {
    JsonObject d = onboard("S-BAD");
    // watchlist_exact 1 -> scaled 1 (w 3); fraud_cases 1 -> 1 (w 2); chargeback_ratio: 1 of 4, the 95% Wilson lower
    // bound (p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n) with p 0.25, n 4, z 1.96 = (0.73021 - 0.64084) /
    // 1.9604 = 0.0456 -> 0.0456/0.5 = 0.0912 (w 1); account_age_days 30 -> (30 - 365) / (0 - 365) = 0.9178 (w 1).
    // Known weight 7. score = 100 * (3 + 2 + 0.0912 + 0.9178) / 7 = 85.843 -> 85.84
    assertEquals(85.84, d.getDouble("riskScore"), 1e-9, d.getJsonArray("signals").encodePrettily());
    assertEquals(0.0456, signal(d, "chargeback_ratio").getDouble("value"));
    assertEquals(42.86, signal(d, "watchlist_exact").getDouble("contribution"));  // 100 * 3 / 7
    assertEquals(28.57, signal(d, "fraud_cases").getDouble("contribution"));      // 100 * 2 / 7
    assertEquals(13.11, signal(d, "account_age_days").getDouble("contribution")); // 100 * 0.917808 / 7
    assertEquals(1.3, signal(d, "chargeback_ratio").getDouble("contribution"));   // 100 * 0.0912 / 7
    assertEquals("REJECT", d.getString("outcome"));
    assertEquals("high", d.getString("riskBand"));
    assertEquals("PENDING_REVIEW", d.getString("status"), "high risk is never final on its own");
    // the top three reasons in order, each citing its tool call. The real citation validator answers: a source
    // citation without a claim keeps its base (watchlist_match succeeded with findings: 0.9), entity and relation
    // 1.0 at depth 0: min(0.9, 1.0) * (1 - 0.1 * 0) = 0.9, at least validAt 0.5 -> valid
    List<String> top = d.getJsonArray("reasons").stream().map(o -> ((JsonObject) o).getString("signal")).limit(3).toList();
    assertEquals(List.of("watchlist_exact", "fraud_cases", "account_age_days"), top);
    JsonObject cite = d.getJsonArray("reasons").getJsonObject(0).getJsonArray("citations").getJsonObject(0);
    assertTrue(cite.getString("citation").matches("\\[source:watchlist_match:\\d+]"), cite.encode());
    assertEquals("valid", cite.getString("status"));
    assertEquals(0.9, cite.getDouble("confidence"));
    assertTrue(d.getJsonArray("firedRules").stream().anyMatch(r -> ((JsonObject) r).getString("id")
        .equals("watchlist_exact_hit")));
    JsonObject reviews = get("/api/reviews?status=pending&sort=confidence").bodyAsJsonObject();
    assertTrue(reviews.getJsonArray("reviews").stream().anyMatch(r -> ((JsonObject) r).getString("decisionId")
        .equals(d.getString("decisionId"))), reviews.encodePrettily());
    assertNotNull(reviews.getJsonObject("sla").getJsonObject("seller_onboarding"));
  }

  @Test
  void anExplanationComparesTheSubjectWithItsPeers() {
    onboard("S-OK");
    onboard("S-IR");
    JsonObject d = onboard("S-BAD");
    JsonObject top = d.getJsonObject("explanation").getJsonArray("topSignals").getJsonObject(0);
    assertEquals("watchlist_exact", top.getString("signal"));
    JsonObject peers = top.getJsonObject("peers");
    // the peers are the other subjects decided under seller_onboarding (S-BAD's own earlier decisions excluded):
    // none of them has a watchlist hit, so every peer is below S-BAD's 1
    assertTrue(peers.getInteger("count") >= 2, peers.encode());
    assertEquals(1.0, peers.getDouble("shareBelow"));
    assertEquals(0.0, peers.getDouble("median"));
    assertTrue(d.getJsonArray("reasons").getJsonObject(0).getString("text").contains("higher than 100% of"),
        d.getJsonArray("reasons").getJsonObject(0).getString("text"));
  }

  @Test
  void aPolicyRuleOverridesTheScore() {
    JsonObject d = onboard("S-IR");
    assertEquals(0.0, d.getDouble("riskScore"));
    assertEquals("REJECT", d.getString("outcome"));
    assertEquals("sanctioned_country", d.getJsonArray("firedRules").getJsonObject(0).getString("id"));
    assertEquals("policies-v1", d.getString("policyVersion"));
    // low risk and confident: a hard rule's reject stands on its own
    assertEquals("FINAL", d.getString("status"), d.getJsonArray("statusReasons").encode());
  }

  @Test
  void aReviewCompletesAPendingDecisionWithANewRecord() {
    JsonObject d = onboard("S-BAD");
    String reviewId = "rev-" + d.getString("decisionId").substring(4);
    HttpResponse<Buffer> claim = post("/api/reviews/" + reviewId + "/claim", new JsonObject().put("analyst", "alice"));
    assertEquals(200, claim.statusCode(), claim.bodyAsString());
    assertEquals("alice", claim.bodyAsJsonObject().getString("assignee"));
    HttpResponse<Buffer> taken = post("/api/reviews/" + reviewId + "/claim", new JsonObject().put("analyst", "bob"));
    assertEquals(409, taken.statusCode());
    assertEquals("claimed", taken.bodyAsJsonObject().getString("code"));
    HttpResponse<Buffer> bad = post("/api/reviews/" + reviewId, new JsonObject().put("analyst", "alice")
        .put("action", "shrug").put("reason", "x"));
    assertEquals(400, bad.statusCode());
    HttpResponse<Buffer> done = post("/api/reviews/" + reviewId, new JsonObject().put("analyst", "alice")
        .put("action", "override").put("outcome", "APPROVE").put("reason", "<script>alert(1)</script> verified by phone"));
    assertEquals(200, done.statusCode(), done.bodyAsString());
    JsonObject next = done.bodyAsJsonObject().getJsonObject("decision");
    assertEquals("APPROVE", next.getString("outcome"));
    assertEquals("FINAL", next.getString("status"));
    assertEquals(d.getString("decisionId"), next.getString("correctsDecisionId"));
    JsonObject original = get("/api/decisions/" + d.getString("decisionId")).bodyAsJsonObject();
    assertEquals("REJECT", original.getString("outcome"), "the reviewed decision is never changed");
    assertEquals(List.of(next.getString("decisionId")), original.getJsonArray("correctedBy").getList());
    assertTrue(completed.stream().anyMatch(e -> reviewId.equals(e.getString("reviewId"))
        && next.getString("decisionId").equals(e.getString("newDecisionId")) && "override".equals(e.getString("action"))));
    assertEquals(409, post("/api/reviews/" + reviewId, new JsonObject().put("analyst", "alice").put("action", "reject")
        .put("reason", "again")).statusCode());
    // the audit export of the correction: JSON, and HTML with the analyst's text escaped
    HttpResponse<Buffer> html = get("/api/decisions/" + next.getString("decisionId") + "/export?format=html");
    assertEquals(200, html.statusCode());
    assertTrue(html.getHeader("Content-Type").startsWith("text/html"));
    assertFalse(html.bodyAsString().contains("<script>"), "escaped");
    assertTrue(html.bodyAsString().contains("&lt;script&gt;"));
    JsonObject json = get("/api/decisions/" + next.getString("decisionId") + "/export?format=json").bodyAsJsonObject();
    assertEquals(next.getString("decisionId"), json.getJsonObject("decision").getString("decisionId"));
    assertEquals(400, get("/api/decisions/" + next.getString("decisionId") + "/export?format=pdf").statusCode());
  }

  @Test
  void aTransactionRunRePlansWhenMostToolsFailAndAPolicyLimitFires() {
    HttpResponse<Buffer> r = post("/api/decisions/transactions", new JsonObject().put("transactionId", "T-BIG")
        .put("asOf", DecisionWorld.AS_OF));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonObject d = r.bodyAsJsonObject();
    // planned device_reputation, consortium_lookup (not registered: fail) and transaction_history: 2 of 3 failed -> re-plan
    // with the alternatives seller_profile and watchlist_match (different tools, not a retry)
    assertEquals(1, d.getInteger("replans"));
    assertEquals(List.of("device_reputation", "consortium_lookup", "transaction_history", "seller_profile", "watchlist_match"),
        d.getJsonArray("tools").stream().map(o -> ((JsonObject) o).getString("tool")).toList());
    assertEquals("T-BIG", d.getJsonArray("tools").getJsonObject(2).getJsonObject("params").getString("transactionId"));
    assertTrue(d.getJsonObject("reflection").getJsonArray("concerns").stream()
        .anyMatch(c -> ((JsonObject) c).getString("rule").equals("failed_tool_matters")));
    assertTrue(d.getJsonArray("firedRules").stream().anyMatch(x -> ((JsonObject) x).getString("id").equals("amount_limit")));
    assertEquals("REVIEW", d.getString("outcome"));
    assertEquals("PENDING_REVIEW", d.getString("status"));
    // missing evidence is itself a reason for review
    assertTrue(d.getJsonArray("statusReasons").stream().anyMatch(x -> String.valueOf(x).startsWith("evidence missing")),
        d.getJsonArray("statusReasons").encode());
    assertEquals("unanimous", d.getJsonObject("consensus").getString("strategy"));
    assertEquals(20000.0, d.getJsonObject("subject").getDouble("amount"));
  }

  @Test
  void theSseStreamCarriesTheRunAndTheDecision() {
    SseClient.Result r = await(new SseClient(vertx, app.port()).post("/api/decisions/onboarding",
        new JsonObject().put("sellerId", "S-OK").put("asOf", DecisionWorld.AS_OF), null));
    assertEquals(200, r.status(), r.body());
    List<String> types = r.types();
    assertEquals("run", types.get(0), types.toString());
    assertEquals("final", types.get(types.size() - 1), types.toString());
    for (String t : List.of("phase", "tool_call", "tool_result", "reflection", "decision")) {
      assertTrue(types.contains(t), t + " in " + types);
    }
    long last = 0;
    for (SseClient.Event e : r.events()) {
      assertTrue(e.id() > last, "ids increase");
      last = e.id();
    }
    assertEquals(r.last("decision").data().getString("decisionId"), r.last("final").data().getString("decisionId"));
    // an unknown subject is refused before the run starts: a plain 404 JSON answer, no stream
    SseClient.Result missing = await(new SseClient(vertx, app.port()).post("/api/decisions/onboarding",
        new JsonObject().put("sellerId", "S-NOPE"), null));
    assertEquals(404, missing.status(), missing.body());
  }

  @Test
  void aDecisionsStreamResumesAfterLastEventIdFromTheRunStore() {
    SseClient.Result first = await(new SseClient(vertx, app.port()).post("/api/decisions/onboarding",
        new JsonObject().put("sellerId", "S-OK").put("asOf", DecisionWorld.AS_OF), null));
    assertEquals(200, first.status(), first.body());
    String runId = first.events().get(0).data().getString("runId");
    List<Long> ids = first.events().stream().map(SseClient.Event::id).toList();
    long cut = ids.get(2); // the client saw three events, then lost the connection
    // the run is recorded after the answer: wait until the store has it
    long deadline = System.currentTimeMillis() + 10_000;
    while (get("/api/runs/" + runId).statusCode() != 200 && System.currentTimeMillis() < deadline) {
      await(io.vertx.core.Future.future(p -> vertx.setTimer(50, t -> p.complete())));
    }
    JsonObject run = get("/api/runs/" + runId).bodyAsJsonObject();
    assertEquals("completed", run.getString("status"), run.encodePrettily());
    assertEquals("seller_onboarding", run.getString("profile"));
    SseClient.Result resumed = await(new SseClient(vertx, app.port()).get("/api/runs/" + runId + "/events",
        String.valueOf(cut), ev -> ev.type().equals("final")));
    assertEquals(200, resumed.status(), resumed.body());
    // exactly the events after the third, in order, the decision and final among them
    assertEquals(ids.subList(3, ids.size()), resumed.events().stream().map(SseClient.Event::id).toList());
    assertEquals(first.last("decision").data().getString("decisionId"),
        resumed.last("decision").data().getString("decisionId"));
  }

  @Test
  void theBusInterfaceDecidesAndPublishes() {
    JsonObject d = await(vertx.eventBus().<JsonObject>request(Addresses.DECIDE_ONBOARDING,
        new JsonObject().put("sellerId", "S-OK").put("asOf", DecisionWorld.AS_OF))).body();
    assertEquals("APPROVE", d.getString("outcome"));
    long deadline = System.currentTimeMillis() + 5_000;
    while (created.stream().noneMatch(c -> d.getString("decisionId").equals(c.getString("decisionId")))
        && System.currentTimeMillis() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    assertTrue(created.stream().anyMatch(c -> d.getString("decisionId").equals(c.getString("decisionId"))));
    JsonObject listed = await(vertx.eventBus().<JsonObject>request(Addresses.DECISIONS_LIST,
        new JsonObject().put("subject", "S-OK").put("limit", 100))).body();
    assertTrue(listed.getJsonArray("decisions").stream().allMatch(x -> "S-OK".equals(((JsonObject) x).getString("subjectId"))));
    assertEquals(d.getString("decisionId"), await(vertx.eventBus().<JsonObject>request(Addresses.DECISIONS_GET,
        new JsonObject().put("id", d.getString("decisionId")))).body().getString("decisionId"));
  }

  @Test
  void badRequestsAreClear4xxAndDecideNothing() {
    int before = get("/api/decisions?limit=500").bodyAsJsonObject().getJsonArray("decisions").size();
    assertEquals("missing_subject", post("/api/decisions/onboarding", new JsonObject()).bodyAsJsonObject().getString("code"));
    assertEquals(400, post("/api/decisions/onboarding", new JsonObject().put("sellerId", 5)).statusCode());
    assertEquals(404, post("/api/decisions/onboarding", new JsonObject().put("sellerId", "S-NOPE")).statusCode());
    assertEquals(400, post("/api/decisions/onboarding", new JsonObject().put("sellerId", "S-OK").put("asOf", "yesterday"))
        .statusCode());
    assertEquals("not_a_seller", post("/api/decisions/onboarding", new JsonObject().put("sellerId", "T-BIG"))
        .bodyAsJsonObject().getString("code"));
    assertEquals("not_a_transaction", post("/api/decisions/transactions", new JsonObject().put("transactionId", "S-OK"))
        .bodyAsJsonObject().getString("code"));
    HttpResponse<Buffer> invalid = post("/api/decisions/onboarding", new JsonObject().put("seller",
        new JsonObject().put("id", "S-INVALID").put("createdAt", "not a time")));
    assertEquals(400, invalid.statusCode(), invalid.bodyAsString());
    assertEquals("invalid_record", invalid.bodyAsJsonObject().getString("code"));
    assertEquals(404, get("/api/records/S-INVALID").statusCode(), "an invalid inline record stores nothing");
    HttpResponse<Buffer> notJson = await(client.post("/api/decisions/onboarding").putHeader("Content-Type",
        "application/json").sendBuffer(Buffer.buffer("{nope")));
    assertEquals(400, notJson.statusCode());
    assertEquals(404, get("/api/decisions/dec-nope").statusCode());
    assertEquals(400, get("/api/decisions?from=someday").statusCode());
    assertEquals(400, get("/api/reviews?sort=mood").statusCode());
    assertEquals(404, post("/api/reviews/rev-nope/claim", new JsonObject().put("analyst", "a")).statusCode());
    assertEquals(400, post("/api/reviews/rev-nope/claim", new JsonObject().put("analyst", "")).statusCode());
    assertEquals(before, get("/api/decisions?limit=500").bodyAsJsonObject().getJsonArray("decisions").size());
  }

  @Test
  void anInlineRecordIsValidatedLoadedAndDecided() {
    HttpResponse<Buffer> r = post("/api/decisions/onboarding", new JsonObject().put("asOf", DecisionWorld.AS_OF)
        .put("seller", new JsonObject().put("id", "S-INLINE").put("createdAt", "2023-01-01T00:00:00Z")
            .put("legalName", "Ina Line").put("country", "NL")));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    assertEquals("S-INLINE", r.bodyAsJsonObject().getString("subjectId"));
    assertEquals(200, get("/api/records/S-INLINE").statusCode());
  }

  @Test
  void theShadowVersionRunsBesideTheLiveOneAndOnlyItsDiffShowsIt() {
    JsonObject live = onboard("S-OK");
    assertEquals("APPROVE", live.getString("outcome"), "the live outcome is returned, never the shadow's");
    JsonObject diff = get("/api/shadow/v2/diff").bodyAsJsonObject();
    // v2's policies also reject DE: S-OK's APPROVE becomes REJECT in the shadow
    assertTrue(diff.getInteger("differing") >= 1, diff.encodePrettily());
    assertTrue(diff.getJsonObject("byChange").getInteger("APPROVE->REJECT", 0) >= 1, diff.encodePrettily());
    assertTrue(diff.getJsonArray("differences").stream().anyMatch(x -> live.getString("decisionId")
        .equals(((JsonObject) x).getString("liveDecisionId"))));
    assertEquals(404, get("/api/shadow/v9/diff").statusCode());
  }

  @Test
  void graphValidationAndCalibrationAreUsedWhenTheyAnswer() {
    // the real citation validator is deployed and would call the watchlist citation valid (see above): a controlled
    // answer comes from an outbound interceptor that answers argus.graph.citations.validate in its place (a second
    // consumer would take turns with the real one). The feedback calibrator is off here (applyCalibration=false):
    // the stand-in calibrator is the only consumer of argus.calibration.apply.
    Handler<DeliveryContext<Object>> validator = ctx -> {
      Message<Object> m = ctx.message();
      if (!BusCalls.CITATIONS_VALIDATE.equals(m.address()) || m.replyAddress() == null) {
        ctx.next();
        return;
      }
      JsonArray results = new JsonArray();
      for (Object o : ((JsonObject) ctx.body()).getJsonArray("citations")) {
        String c = ((JsonObject) o).getString("citation");
        boolean watch = c.startsWith("[source:watchlist_match");
        results.add(new JsonObject().put("citation", c).put("status", watch ? "excluded" : "valid")
            .put("confidence", watch ? 0.2 : 0.9).put("reasoning", new JsonArray().add("stand-in")));
      }
      // not passed on (no ctx.next()): the requester's reply handler gets the stand-in's answer
      vertx.eventBus().send(m.replyAddress(), new JsonObject().put("results", results));
    };
    vertx.eventBus().addOutboundInterceptor(validator);
    MessageConsumer<JsonObject> calibrator = vertx.eventBus().consumer(BusCalls.CALIBRATION_APPLY, m ->
        m.reply(new JsonObject().put("calibrated", 0.5).put("calibratorVersion", "cal-test")));
    try {
      await(calibrator.completion());
      JsonObject d = onboard("S-BAD");
      JsonObject cite = d.getJsonArray("reasons").getJsonObject(0).getJsonArray("citations").getJsonObject(0);
      assertEquals("excluded", cite.getString("status"));
      // the deciding reason lost its support: re-scored without it and sent to review.
      // without watchlist_exact: known weight 4; score = 100 * (2 + 0.0912 + 0.9178) / 4 = 75.225
      assertEquals(75.225, d.getJsonObject("rescored").getDouble("riskScore"), 0.006);
      assertEquals("PENDING_REVIEW", d.getString("status"));
      assertEquals(0.5, d.getDouble("calibratedConfidence"));
      assertEquals("cal-test", d.getJsonObject("versions").getString("calibrator"));
      JsonObject ok = onboard("S-OK");
      assertEquals("PENDING_REVIEW", ok.getString("status"), "calibrated 0.5 is below the profile's 0.7");
      assertEquals("APPROVE", ok.getString("outcome"));
    } finally {
      vertx.eventBus().removeOutboundInterceptor(validator);
      await(calibrator.unregister());
    }
  }
}
