package dev.argus.eval.online;

import dev.argus.agent.SseClient;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.score.ChatScores;
import dev.argus.eval.score.Metric;
import dev.argus.eval.score.Scorecard;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Online evaluation in the running application (real HTTP, SSE, SQLite, the fake embedding provider, no LLM):
 * a chat run is evaluated after its answer and the stored scores equal the scores recomputed from the stored run;
 * a published decision is evaluated; an evaluation that fails leaves the run intact; the read routes answer and
 * reject bad parameters with {@code {error, code}}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EvaluationApiTest {

  private Vertx vertx;
  private FakeEmbeddingServer embeddings;
  private TestApp app;
  private WebClient web;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir())).with("agent", "cacheTtlMs", 0);
    app = await(TestApp.start(vertx, conf));
    web = WebClient.create(vertx);
    JsonArray docs = new JsonArray()
        .add(new JsonObject().put("id", "refund-policy").put("title", "Refund policy").put("format", "text")
            .put("text", "The refund window for card payments is 30 days. Refunds are paid to the original card "
                + "within 5 business days."))
        .add(new JsonObject().put("id", "payout-holds").put("title", "Payout holds").put("format", "text")
            .put("text", "New sellers have payouts held for 7 days. Holds are lifted after the first 10 orders."));
    HttpResponse<Buffer> r = await(web.post(app.port(), "127.0.0.1", "/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(new JsonObject().put("documents", docs)));
    assertEquals(201, r.statusCode(), r.bodyAsString());
  }

  @AfterAll
  void stop() {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<Buffer> get(String path) {
    return await(web.get(app.port(), "127.0.0.1", path).send());
  }

  private JsonObject waitFor(String path) throws InterruptedException {
    for (int i = 0; i < 150; i++) {
      HttpResponse<Buffer> r = get(path);
      if (r.statusCode() == 200) {
        return r.bodyAsJsonObject();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no 200 from " + path);
  }

  private String chat(String question) {
    SseClient.Result res = await(new SseClient(vertx, app.port()).post("/api/chat",
        new JsonObject().put("question", question), null));
    assertEquals(200, res.status());
    assertNotNull(res.last("final"), res.types().toString());
    return res.last("final").data().getString("runId");
  }

  @Test
  void aChatRunIsEvaluatedAfterItsAnswerWithTheScoresOfItsStoredRun() throws Exception {
    String runId = chat("What is the refund window for card payments?");
    JsonObject eval = waitFor("/api/eval/runs/" + runId);
    assertEquals("chat", eval.getString("kind"));
    assertEquals("assistant", eval.getString("profile"));
    JsonObject run = get("/api/runs/" + runId).bodyAsJsonObject();
    Scorecard expected = ChatScores.score(ChatRunView.fromRun(run));
    assertEquals(expected.toJson().getJsonObject("metrics"), eval.getJsonObject("metrics"));
    assertTrue(eval.getJsonObject("metrics").containsKey(Metric.GROUNDEDNESS.wire()), eval.encode());
    assertEquals("skipped", eval.getJsonObject("details").getJsonObject("judge").getString("status"));
    assertEquals("no LLM configured", eval.getJsonObject("details").getJsonObject("judge").getString("reason"));
  }

  @Test
  void aPublishedDecisionIsEvaluated() throws Exception {
    JsonObject decision = new JsonObject().put("decisionId", "dec-1").put("runId", "run-dec-1")
        .put("profile", "onboarding").put("outcome", "REJECT").put("subjectId", "S-1")
        .put("reasons", new JsonArray().add(new JsonObject().put("text", "ring").put("citations", new JsonArray()
            .add(new JsonObject().put("citation", "[rel:1]").put("status", "valid"))
            .add(new JsonObject().put("citation", "[rel:2]").put("status", "flagged")))))
        .put("consensus", new JsonObject().put("agreement", 1.0));
    app.vertx().eventBus().publish(Addresses.DECISIONS_CREATED, decision);
    JsonObject eval = waitFor("/api/eval/runs/dec-1");
    assertEquals("decision", eval.getString("kind"));
    // 1 valid of 2 citations; agreement 1; aggregate (0.5 + 1) / 2
    assertEquals(0.5, eval.getJsonObject("metrics").getDouble("citationValidityRate"));
    assertEquals(0.75, eval.getJsonObject("metrics").getDouble("aggregate"));
    assertEquals("S-1", eval.getJsonObject("details").getString("subjectId"));
  }

  @Test
  void anEvaluationFailureNeverFailsTheRun() throws Exception {
    var pool = app.main().services().database().pool();
    long failedBefore = get("/api/eval/stats").bodyAsJsonObject().getJsonObject("evaluator").getLong("failed");
    await(pool.query("ALTER TABLE eval_scores RENAME TO eval_scores_gone").execute());
    try {
      String runId = chat("How long are payouts held for new sellers?");
      JsonObject run = get("/api/runs/" + runId).bodyAsJsonObject();
      assertEquals("completed", run.getString("status"));
      assertFalse(run.getJsonObject("result").getString("answer").isBlank());
      long failed = failedBefore;
      for (int i = 0; i < 150 && failed == failedBefore; i++) {
        Thread.sleep(100);
        failed = get("/api/eval/stats").bodyAsJsonObject().getJsonObject("evaluator").getLong("failed");
      }
      assertEquals(failedBefore + 1, failed);
      assertEquals(404, get("/api/eval/runs/" + runId).statusCode());
    } finally {
      await(pool.query("ALTER TABLE eval_scores_gone RENAME TO eval_scores").execute());
    }
  }

  @Test
  void historyTrendRegressionsAndStatsAnswer() throws Exception {
    String runId = chat("When are refunds paid to the original card?");
    waitFor("/api/eval/runs/" + runId);
    HttpResponse<Buffer> agg = await(web.post(app.port(), "127.0.0.1", "/api/eval/aggregate").send());
    assertEquals(200, agg.statusCode(), agg.bodyAsString());
    JsonObject history = get("/api/eval/history?metric=aggregate&profile=assistant").bodyAsJsonObject();
    assertFalse(history.getJsonArray("scores").isEmpty());
    assertFalse(history.getJsonArray("hourly").isEmpty());
    JsonObject trend = get("/api/eval/trend?metric=aggregate").bodyAsJsonObject();
    assertEquals(168, trend.getInteger("hours"));
    assertEquals("aggregate", trend.getJsonArray("series").getJsonObject(0).getString("metric"));
    assertNotNull(get("/api/eval/regressions").bodyAsJsonObject().getJsonArray("regressions"));
    JsonObject stats = get("/api/eval/stats").bodyAsJsonObject();
    assertTrue(stats.getLong("evaluated") >= 1);
    assertTrue(stats.getJsonObject("byKind").containsKey("chat"));
  }

  @Test
  void badParametersAreRejected() {
    assertError(get("/api/eval/history?metric=bogus"), 400, "invalid_parameter");
    assertError(get("/api/eval/history?from=yesterday"), 400, "invalid_parameter");
    assertError(get("/api/eval/history?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z"), 400, "invalid_parameter");
    assertError(get("/api/eval/trend?hours=0"), 400, "invalid_parameter");
    assertError(get("/api/eval/history?profile=" + "p".repeat(65)), 400, "invalid_parameter");
    assertError(get("/api/eval/runs/no-such-run"), 404, "not_evaluated");
  }

  static void assertError(HttpResponse<Buffer> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    assertEquals(code, r.bodyAsJsonObject().getString("code"), r.bodyAsString());
    assertNotNull(r.bodyAsJsonObject().getString("error"));
  }
}
