package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state machine's bounds: refinement loops, the one re-plan after failed tool calls, parallel follow-ups. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoordinatorLoopTest {

  private Vertx vertx;
  private AgentHarness app;
  private BusFault retrieval;
  private BusFault neighbours;
  private SseClient sse;
  private WebClient web;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ArgusConfig conf = AgentHarness.config().with("agent", "toolBackoffMs", 10)
        .with("agent", "breakerMaxFailures", 1000).with("agent", "cacheTtlMs", 0);
    app = await(AgentHarness.start(vertx, conf, Corpus.standard()));
    retrieval = BusFault.on(vertx, Addresses.RETRIEVE_SEARCH);
    neighbours = BusFault.on(vertx, Addresses.CHUNK_NEIGHBOURS);
    sse = new SseClient(vertx, app.port());
    web = WebClient.create(vertx);
  }

  @BeforeEach
  void reset() {
    retrieval.reset();
    neighbours.reset();
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private SseClient.Result chat(String q) throws Exception {
    return await(sse.post("/api/chat", new JsonObject().put("question", q), null));
  }

  private JsonObject run(SseClient.Result r) throws Exception {
    String id = r.events().get(0).data().getString("runId");
    return await(web.get(app.port(), "127.0.0.1", "/api/runs/" + id).send()).bodyAsJsonObject();
  }

  private static List<String> phaseStarts(SseClient.Result r) {
    return r.all("phase").stream().filter(e -> "start".equals(e.data().getString("status")))
        .map(e -> e.data().getString("name")).toList();
  }

  private static long searches(SseClient.Result r) {
    return r.all("tool_call").stream().filter(e -> "knowledge_search".equals(e.data().getString("tool"))).count();
  }

  @Test
  void unsupportedAnswersLoopBackAtMostTwiceThenEndWithFinal() throws Exception {
    SseClient.Result r = chat("What is the airspeed velocity of an unladen swallow?");
    assertEquals(List.of("think", "plan", "act", "observe", "reflect", "plan", "act", "observe", "reflect",
        "plan", "act", "observe", "reflect"), phaseStarts(r));
    assertEquals(3, searches(r));
    assertEquals(2, r.all("agent_log").stream().filter(e -> e.data().getString("message").contains("refinement")).count());
    assertEquals("final", r.types().get(r.types().size() - 1));
    JsonObject fin = r.last("final").data();
    assertEquals("no_answer", fin.getString("kind"));
    assertFalse(fin.getBoolean("verified"));
    assertEquals(0.0, fin.getDouble("confidence"));
    assertEquals(2, fin.getInteger("loops"));
    JsonObject run = run(r);
    assertEquals(2, run.getInteger("loopCount"));
    assertEquals("completed", run.getString("status"));
    // the refinements searched with a reformulated keyword query, without self-query (the real retriever returns the
    // nearest chunks even for an off-topic question, so neighbour look-ups sit between the searches)
    JsonObject second = r.all("tool_call").stream().filter(e -> "knowledge_search".equals(e.data().getString("tool")))
        .toList().get(1).data().getJsonObject("params");
    assertEquals("airspeed velocity unladen swallow", second.getString("query"));
    assertFalse(second.getBoolean("selfQuery"));
    // every search of the run used a query the run had not tried
    List<String> queries = r.all("tool_call").stream().filter(e -> "knowledge_search".equals(e.data().getString("tool")))
        .map(e -> e.data().getJsonObject("params").getString("query").toLowerCase()).toList();
    assertEquals(queries.size(), new java.util.HashSet<>(queries).size(), queries.toString());
    assertEquals(13, run.getJsonArray("chainOfThought").size());
  }

  @Test
  void majorityOfFailedCallsTriggersOneReplan() throws Exception {
    retrieval.failCode = 400; // not transient: no retry, the call fails at once
    retrieval.failNext = 1;
    SseClient.Result r = chat("How long do refunds take to be processed?");
    assertEquals(List.of("think", "plan", "act", "plan", "act", "observe", "reflect"), phaseStarts(r));
    assertTrue(r.all("agent_log").stream().anyMatch(e -> e.data().getString("message").contains("re-planning once")));
    assertEquals(2, searches(r));
    assertTrue(r.last("final").data().getBoolean("verified"));
    JsonObject run = run(r);
    assertEquals(1, run.getInteger("replans"));
    assertFalse(run.getJsonArray("evidence").getJsonObject(0).getBoolean("success"));
    assertTrue(run.getJsonArray("evidence").getJsonObject(1).getBoolean("success"));
    assertEquals(1, run.getJsonArray("evidence").getJsonObject(1).getInteger("index"));
    // the re-plan searched with a different query than the one that failed, and said why
    List<String> queries = r.all("tool_call").stream().filter(e -> "knowledge_search".equals(e.data().getString("tool")))
        .map(e -> e.data().getJsonObject("params").getString("query")).toList();
    assertFalse(queries.get(0).equalsIgnoreCase(queries.get(1)), queries.toString());
    assertTrue(run.getJsonObject("phases").getJsonObject("plan").getJsonObject("output").getString("rationale")
        .contains("injected failure"), run.getJsonObject("phases").encode());
  }

  @Test
  void replanHappensOnlyOnceAndLoopsStayBounded() throws Exception {
    retrieval.failCode = 400;
    retrieval.failNext = 100;
    SseClient.Result r = chat("How long do refunds take to be processed?");
    // 1 search + 1 re-plan + 2 refinements, then final without evidence
    assertEquals(4, searches(r));
    assertEquals("final", r.types().get(r.types().size() - 1));
    assertEquals("no_answer", r.last("final").data().getString("kind"));
    JsonObject run = run(r);
    assertEquals(1, run.getInteger("replans"));
    assertEquals(2, run.getInteger("loopCount"));
  }

  @Test
  void transientToolFailuresAreRetriedInsideAct() throws Exception {
    retrieval.failCode = 503;
    retrieval.failNext = 2; // two transient failures, the third attempt answers
    SseClient.Result r = chat("How long does standard shipping take?");
    assertEquals(1, searches(r));
    JsonObject result = r.all("tool_result").get(0).data();
    assertTrue(result.getBoolean("success"));
    assertEquals(3, result.getInteger("attempts"));
    assertTrue(r.last("final").data().getBoolean("verified"));
  }

  @Test
  void neighbourFollowUpsRunInParallel() throws Exception {
    retrieval.delayMs = 400;
    neighbours.delayMs = 400;
    SseClient.Result r = chat("Which sellers are reviewed manually by the risk team?");
    long neighbours = r.all("tool_call").stream().filter(e -> "get_chunk_neighbours".equals(e.data().getString("tool")))
        .count();
    assertEquals(2, neighbours);
    JsonObject run = run(r);
    long act = run.getJsonObject("phases").getJsonObject("act").getLong("durationMs");
    // one search (400 ms), then two neighbour calls side by side (400 ms): sequential would be 1200 ms
    assertTrue(act >= 800 && act < 1150, "act took " + act + " ms");
  }
}
