package dev.argus.observe;

import dev.argus.agent.SseClient;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.metrics.Metrics;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunInput;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import dev.argus.runs.RunStores;
import dev.argus.testing.FakeLlmServer;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole service with metrics on and an LLM (a real HTTP server speaking OpenAI's protocol): after real
 * traffic — an ingestion, a chat run whose four LLM phases report known token counts, searches, decision, review,
 * evaluation, calibration and bridge events on the bus — {@code /metrics} shows Argus's meters with the values that
 * traffic must give; the run has a stored trace; the deep health check passes, then fails once a chunk row is
 * removed behind the store's back; retention purges constructed old runs, their events and traces.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ObservabilityTest {

  private Vertx vertx;
  private TestApp app;
  private FakeOpenAiServer llm;
  private WebClient web;
  private SseClient.Result chat;
  private String runId;

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  /** Answers each phase's prompt; the four calls use 50+80+200+150 = 480 prompt and 20+30+25+15 = 90 completion tokens. */
  static Function<FakeLlmServer.Recorded, FakeReply> phases() {
    return r -> {
      String system = r.body().getJsonArray("messages").getJsonObject(0).getString("content");
      if (system.startsWith("You analyse")) {
        return FakeReply.text(new JsonObject().put("intent", "question").put("needsRetrieval", true)
            .put("query", "refund processing time").put("entities", new JsonArray())
            .put("filters", new JsonObject()).encode()).usage(50, 20);
      }
      if (system.startsWith("You plan")) {
        return FakeReply.text(new JsonObject().put("rationale", "look up refund timing")
            .put("calls", new JsonArray().add(new JsonObject().put("tool", "knowledge_search")
                .put("params", new JsonObject().put("query", "refunds processed days").put("topK", 4)))).encode())
            .usage(80, 30);
      }
      if (system.startsWith("You answer")) {
        return FakeReply.text("Refunds are processed within 14 days. [cite:refund-policy:0]").usage(200, 25);
      }
      if (system.startsWith("You check")) {
        return FakeReply.text("{\"sentences\": [{\"index\": 0, \"supported\": true, \"reason\": \"stated\"}], "
            + "\"contradictions\": [], \"overconfident\": []}").usage(150, 15);
      }
      return FakeReply.error(400);
    };
  }

  @BeforeAll
  void start() throws Exception {
    vertx = Metrics.vertxWithMetrics(new VertxOptions());
    llm = await(FakeOpenAiServer.start(vertx));
    llm.respondWith(phases());
    JsonObject raw = TestApp.config(TestApp.tempDataDir()).with("agent", "cacheTtlMs", 0).raw().copy();
    raw.getJsonObject("llm").mergeIn(llm.conf().put("maxRetries", 0));
    app = await(TestApp.start(vertx, ArgusConfig.from(raw)));
    web = WebClient.create(vertx);
    JsonArray docs = new JsonArray()
        .add(new JsonObject().put("id", "refund-policy").put("title", "Refund policy").put("format", "text")
            .put("text", "Refunds are processed within 14 days after the returned item arrives at the warehouse."))
        .add(new JsonObject().put("id", "shipping").put("title", "Shipping times").put("format", "text")
            .put("text", "Standard shipping takes 3 to 5 business days. Express shipping delivers the next day."));
    HttpResponse<Buffer> ingest = await(web.post(app.port(), "127.0.0.1", "/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(new JsonObject().put("documents", docs)));
    assertEquals(201, ingest.statusCode(), ingest.bodyAsString());
    chat = await(new SseClient(vertx, app.port()).post("/api/chat",
        new JsonObject().put("question", "How quickly is my refund processed?"), null));
    assertEquals("final", chat.types().get(chat.types().size() - 1), chat.types().toString());
    runId = chat.events().get(0).data().getString("runId");
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  private Prometheus scrape() throws Exception {
    HttpResponse<Buffer> r = await(web.get(app.port(), "127.0.0.1", "/metrics").send());
    assertEquals(200, r.statusCode());
    return new Prometheus(r.bodyAsString());
  }

  private JsonObject search(String query) throws Exception {
    HttpResponse<Buffer> r = await(web.post(app.port(), "127.0.0.1", "/api/search")
        .sendJsonObject(new JsonObject().put("query", query)));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  @Test
  @Order(1)
  void metersShowTheTrafficJustMade() throws Exception {
    // two searches of the same query: the first runs every leg, the second is answered from the cache
    assertFalse(search("shipping days").getBoolean("cached"));
    assertTrue(search("shipping days").getBoolean("cached"));
    String profile = chat.events().get(0).data().getString("profile");
    long knowledgeSearches = chat.all("tool_result").stream()
        .filter(e -> "knowledge_search".equals(e.data().getString("tool"))).count();
    Map<String, Integer> toolCalls = new HashMap<>();
    chat.all("tool_result").forEach(e -> toolCalls.merge(e.data().getString("tool"), 1, Integer::sum));
    long chunks = await(web.get(app.port(), "127.0.0.1", "/api/health").send()).bodyAsJsonObject()
        .getJsonObject("store").getLong("chunks");
    // the online evaluator judges the completed chat run with the LLM after the run ends: wait for its stored
    // evaluation, so that the judge's LLM call is counted before the scrape
    long deadline = System.currentTimeMillis() + 30_000;
    while (await(web.get(app.port(), "127.0.0.1", "/api/eval/runs/" + runId).send()).statusCode() != 200) {
      assertTrue(System.currentTimeMillis() < deadline, "the chat run is evaluated");
      Thread.sleep(50);
    }

    Prometheus p = scrape();
    // ingestion: two new documents and every chunk the store now holds
    assertEquals(2.0, p.require("argus_ingest_documents_total", "outcome", "created"));
    assertEquals((double) chunks, p.require("argus_ingest_chunks_total"));
    // runs: the one chat, completed; none active
    assertEquals(1.0, p.require("argus_runs_total", "profile", profile, "status", "completed"));
    assertEquals(0.0, p.require("argus_runs_active"));
    assertEquals(1.0, p.require("argus_run_duration_seconds_count", "profile", profile));
    // phases: think, plan, observe, reflect on the LLM path once each; act on the rule path
    for (String phase : List.of("think", "plan", "observe", "reflect")) {
      assertEquals(1.0, p.require("argus_phase_duration_seconds_count", "phase", phase, "path", "llm", "outcome", "ok"),
          phase);
    }
    assertEquals(1.0, p.require("argus_phase_duration_seconds_count", "phase", "act", "path", "rules"));
    // tools: one series per tool, as many calls as tool_result events
    toolCalls.forEach((tool, n) -> assertEquals((double) n, p.require("argus_tool_calls_total", "tool", tool,
        "outcome", "success") , tool));
    assertEquals((double) knowledgeSearches, p.require("argus_tool_latency_seconds_count", "tool", "knowledge_search"));
    // LLM: the run's four calls, 50+80+200+150 = 480 prompt tokens, 20+30+25+15 = 90 completion tokens; and the
    // online evaluator's judge call on the run ("You grade ..."), which the fake LLM answers with HTTP 400 (no
    // retries configured): one failed call, no tokens
    assertEquals(4.0, p.require("argus_llm_calls_total", "provider", "openai", "outcome", "succeeded"));
    assertEquals(1.0, p.require("argus_llm_calls_total", "provider", "openai", "outcome", "failed"));
    assertEquals(480.0, p.require("argus_llm_tokens_total", "provider", "openai", "kind", "prompt"));
    assertEquals(90.0, p.require("argus_llm_tokens_total", "provider", "openai", "kind", "completion"));
    assertEquals(4.0, p.require("argus_llm_latency_seconds_count", "provider", "openai", "outcome", "succeeded"));
    assertEquals(0.0, p.require("argus_llm_fallbacks_total", "provider", "openai"));
    // searches: the chat's knowledge_search calls and the first direct search ran the legs; the second was cached
    assertEquals(knowledgeSearches + 1.0, p.require("argus_search_leg_seconds_count", "leg", "total"));
    assertEquals(knowledgeSearches + 1.0, p.require("argus_search_leg_seconds_count", "leg", "keyword"));
    assertEquals(1.0, p.require("argus_searches_total", "cached", "true"));
    assertTrue(p.grep("argus_search_leg_seconds_bucket").contains("le="), "a histogram with buckets");
    // breakers: every tool's breaker is closed (0); the decisions' executor runs the record tools with breakers of
    // its own, under names of their own
    assertEquals(0.0, p.require("argus_breaker_state", "breaker", "tool:knowledge_search"));
    assertEquals(0.0, p.require("argus_breaker_state", "breaker", "tool:seller_profile"));
    assertEquals(0.0, p.require("argus_breaker_state", "breaker", "decision-tool:seller_profile"));
  }

  @Test
  @Order(2)
  void busEventsOfOtherCapabilitiesBecomeMeters() throws Exception {
    long now = System.currentTimeMillis();
    var eb = vertx.eventBus();
    eb.publish(Addresses.DECISIONS_CREATED, decision("d-1", "REVIEW", "PENDING_REVIEW", now - 60_000));
    eb.publish(Addresses.DECISIONS_CREATED, decision("d-2", "REVIEW", "PENDING_REVIEW", now - 10_000));
    eb.publish(Addresses.DECISIONS_CREATED, decision("d-3", "APPROVE", "FINAL", now));
    // an outcome nobody defined does not become a label value
    eb.publish(Addresses.DECISIONS_CREATED, decision("d-4", "<script>", "FINAL", now));
    eb.publish(Addresses.REVIEWS_COMPLETED, new JsonObject().put("reviewId", "r-1").put("decisionId", "d-1")
        .put("newDecisionId", "d-5").put("action", "approve").put("analyst", "a").put("reason", "ok"));
    eb.publish(Addresses.EVAL_SCORED, new JsonObject().put("profile", "chat").put("metric", "groundedness").put("value", 0.8));
    eb.publish(Addresses.EVAL_SCORED, new JsonObject().put("profile", "chat").put("metric", "groundedness").put("value", 0.6));
    eb.publish(Addresses.CALIBRATION_UPDATED, new JsonObject().put("profile", "seller_onboarding")
        .put("calibrationError", 0.042));
    eb.publish(Addresses.BRIDGE_CONNECTIONS, new JsonObject().put("transport", "sockjs").put("open", 3));
    Thread.sleep(300);
    Prometheus p = scrape();
    assertEquals(2.0, p.require("argus_decisions_total", "profile", "seller_onboarding", "outcome", "review",
        "status", "pending_review"));
    assertEquals(1.0, p.require("argus_decisions_total", "outcome", "approve", "status", "final"));
    assertEquals(1.0, p.require("argus_decisions_total", "outcome", "other"));
    assertFalse(p.grep("argus_decisions_total").contains("script"));
    // d-1 reviewed: d-2 waits, created 10 s ago
    assertEquals(1.0, p.require("argus_reviews_queue_size"));
    double age = p.require("argus_reviews_queue_age_seconds");
    assertTrue(age >= 10.0 && age < 100.0, "age " + age);
    assertEquals(1.0, p.require("argus_reviews_completed_total", "action", "approve"));
    // two scores: count 2, sum 0.8 + 0.6 = 1.4
    assertEquals(2.0, p.require("argus_eval_score_count", "profile", "chat", "metric", "groundedness"));
    assertEquals(1.4, p.require("argus_eval_score_sum", "profile", "chat", "metric", "groundedness"), 1e-9);
    assertEquals(0.042, p.require("argus_calibration_error", "profile", "seller_onboarding"), 1e-12);
    assertEquals(3.0, p.require("argus_bridge_connections", "transport", "sockjs"));
  }

  private static JsonObject decision(String id, String outcome, String status, long createdAt) {
    return new JsonObject().put("decisionId", id).put("profile", "seller_onboarding").put("outcome", outcome)
        .put("status", status).put("createdAt", java.time.Instant.ofEpochMilli(createdAt).toString());
  }

  @Test
  @Order(3)
  void theRunHasOneStoredTraceWithPhaseToolLlmAndStoreSpans() throws Exception {
    JsonObject trace = null;
    for (int i = 0; i < 50 && trace == null; i++) {
      HttpResponse<Buffer> r = await(web.get(app.port(), "127.0.0.1", "/api/runs/" + runId + "/trace").send());
      if (r.statusCode() == 200) {
        trace = r.bodyAsJsonObject();
      } else {
        assertEquals(404, r.statusCode());
        Thread.sleep(100);
      }
    }
    assertNotNull(trace, "a trace for run " + runId);
    assertEquals(runId, trace.getString("runId"));
    assertTrue(trace.getString("traceId").matches("[0-9a-f]{32}"), trace.getString("traceId"));
    JsonArray spans = trace.getJsonArray("spans");
    JsonObject root = spans.getJsonObject(0);
    assertTrue(root.getString("name").startsWith("run "), root.encode());
    assertEquals(runId, root.getJsonObject("attributes").getString("argus.run.id"));
    assertEquals("completed", root.getJsonObject("attributes").getString("argus.run.status"));
    Set<String> ids = new HashSet<>();
    Map<String, Integer> byKind = new HashMap<>();
    long promptTokens = 0;
    for (Object o : spans) {
      JsonObject s = (JsonObject) o;
      ids.add(s.getString("spanId"));
      byKind.merge(s.getString("name").split(" ")[0], 1, Integer::sum);
      if (s.getString("name").startsWith("llm ")) {
        promptTokens += s.getJsonObject("attributes").getLong("gen_ai.usage.input_tokens");
      }
      // every span lies within the run's span
      assertTrue(s.getDouble("startMs") >= root.getDouble("startMs") - 1 && s.getDouble("endMs") <= root.getDouble("endMs") + 1000,
          s.encode());
    }
    for (Object o : spans) {
      JsonObject s = (JsonObject) o;
      if (!s.getString("spanId").equals(root.getString("spanId"))) {
        assertTrue(ids.contains(s.getString("parentSpanId")), "parent of " + s.encode());
      }
    }
    long phaseStarts = chat.all("phase").stream().filter(e -> "start".equals(e.data().getString("status"))).count();
    assertEquals(1, byKind.get("run"));
    assertEquals((int) phaseStarts, byKind.get("phase"));
    assertEquals(4, byKind.get("llm"));
    assertEquals(480, promptTokens);
    assertEquals(chat.all("tool_result").size(), byKind.get("tool"));
    assertTrue(byKind.getOrDefault("store", 0) >= 2, "the search's legs as store spans: " + byKind);
    // bad and unknown run ids
    assertEquals(404, await(web.get(app.port(), "127.0.0.1", "/api/runs/no-such-run/trace").send()).statusCode());
    HttpResponse<Buffer> bad = await(web.get(app.port(), "127.0.0.1", "/api/runs/bad%20id/trace").send());
    assertEquals(400, bad.statusCode());
    assertEquals("invalid_run_id", bad.bodyAsJsonObject().getString("code"));
  }

  @Test
  @Order(4)
  void deepHealthProbesEveryVerticleAndTheStoreConsistency() throws Exception {
    HttpResponse<Buffer> r = await(web.get(app.port(), "127.0.0.1", "/api/health/deep").send());
    JsonObject h = r.bodyAsJsonObject();
    assertEquals(200, r.statusCode(), h.encodePrettily());
    assertEquals("ok", h.getString("status"));
    for (Object o : h.getJsonArray("verticles")) {
      assertEquals("up", ((JsonObject) o).getString("status"), ((JsonObject) o).encode());
    }
    assertTrue(h.getJsonObject("consistency").getBoolean("ok"), h.getJsonObject("consistency").encode());
    Set<String> checks = new HashSet<>();
    h.getJsonObject("consistency").getJsonArray("checks").forEach(c -> checks.add(((JsonObject) c).getString("name")));
    assertTrue(checks.containsAll(List.of("chunk_counts", "vector_index", "text_index", "embedding_model", "embedder")),
        checks.toString());
    JsonObject think = h.getJsonArray("agents").getJsonObject(0);
    assertEquals("think", think.getString("phase"));
    assertEquals(1, think.getInteger("ok"));
    assertEquals(1, think.getInteger("llm"));
    assertEquals("closed", h.getJsonObject("breakers").getString("tool:knowledge_search"));
    assertEquals("closed", h.getJsonObject("breakers").getString("decision-tool:seller_profile"));

    // a chunk removed behind the store's back: the in-process indexes no longer match the table
    await(app.main().services().database().pool().query("DELETE FROM chunks WHERE rowid = (SELECT max(rowid) FROM chunks)")
        .execute());
    HttpResponse<Buffer> broken = await(web.get(app.port(), "127.0.0.1", "/api/health/deep").send());
    assertEquals(503, broken.statusCode());
    JsonObject b = broken.bodyAsJsonObject();
    assertEquals("degraded", b.getString("status"));
    assertFalse(b.getJsonObject("consistency").getBoolean("ok"));
    Set<String> failing = new HashSet<>();
    b.getJsonObject("consistency").getJsonArray("checks").forEach(c -> {
      if (!((JsonObject) c).getBoolean("ok")) {
        failing.add(((JsonObject) c).getString("name"));
      }
    });
    assertTrue(failing.containsAll(List.of("chunk_counts", "vector_index", "text_index")), failing.toString());
  }

  @Test
  @Order(5)
  void retentionPurgesOldRunsTheirEventsAndTraces() throws Exception {
    var db = app.main().services().database();
    RunStore runs = RunStores.create(db);
    TraceStore traces = TraceStore.create(db);
    long old = System.currentTimeMillis() - 31L * 24 * 3_600_000; // 31 days: past the default 720 h
    List<String> oldIds = List.of("old-run-1", "old-run-2");
    for (String id : oldIds) {
      Run r = Run.start(id, "chat", new RunInput("q", "default", null, null), old)
          .withProgress(RunStatus.COMPLETED, null, 0, 0, null, old);
      await(runs.save(r));
      await(runs.appendEvents(List.of(new RunEvent(id, 1, RunEvent.RUN, new JsonObject(), old),
          new RunEvent(id, 2, RunEvent.FINAL, new JsonObject(), old))));
      await(traces.save(new RunTrace(id, "0".repeat(32), old, new JsonArray())));
    }
    Run stuck = Run.start("old-running", "chat", new RunInput("q", "default", null, null), old);
    await(runs.save(stuck));
    JsonObject purged = await(app.main().observe().purgeNow());
    assertEquals(2, purged.getInteger("runs"), purged.encode());
    assertEquals(4, purged.getInteger("events"), purged.encode());
    assertEquals(2, purged.getInteger("traces"), purged.encode());
    for (String id : oldIds) {
      assertEquals(404, await(web.get(app.port(), "127.0.0.1", "/api/runs/" + id).send()).statusCode());
      assertFalse(await(traces.find(id)).isPresent());
    }
    // the running run and the recent chat stay
    assertTrue(await(runs.find("old-running")).isPresent());
    assertEquals(200, await(web.get(app.port(), "127.0.0.1", "/api/runs/" + runId).send()).statusCode());
    assertEquals(200, await(web.get(app.port(), "127.0.0.1", "/api/runs/" + runId + "/trace").send()).statusCode());
    assertEquals(2.0, scrape().require("argus_retention_purged_total", "kind", "runs"));
  }
}
