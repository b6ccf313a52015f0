package dev.argus.agent.tools;

import dev.argus.decide.DecideModule;
import dev.argus.metrics.ArgusMeters;
import dev.argus.metrics.Metrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tool calls: schema validation, timeout, retry with exponential backoff, circuit breaker, parallel calls. */
class ToolExecutorTest {

  private Vertx vertx;

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void close() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** A test tool whose behaviour per call number (1-based) is given by {@code behaviour}. */
  static final class ScriptedTool implements Tool {
    final AtomicInteger calls = new AtomicInteger();
    final String name;
    final Function<Integer, Future<JsonObject>> behaviour;

    ScriptedTool(String name, Function<Integer, Future<JsonObject>> behaviour) {
      this.name = name;
      this.behaviour = behaviour;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return "test tool";
    }

    @Override
    public JsonObject schema() {
      return new JsonObject("""
          {"type": "object", "required": ["q"], "additionalProperties": false,
           "properties": {"q": {"type": "string", "minLength": 1}, "n": {"type": "integer", "maximum": 5}}}
          """);
    }

    @Override
    public Future<JsonObject> execute(JsonObject params) {
      return behaviour.apply(calls.incrementAndGet());
    }
  }

  private ToolExecutor executor(Tool tool, long timeoutMs, int retries, long backoffMs, int maxFailures) {
    return new ToolExecutor(vertx, List.of(tool), new ToolExecutor.Settings(timeoutMs, retries, backoffMs, maxFailures,
        60_000));
  }

  private Future<JsonObject> later(long ms, JsonObject value) {
    Promise<JsonObject> p = Promise.promise();
    vertx.setTimer(ms, id -> p.complete(value));
    return p.future();
  }

  @Test
  void invalidParametersAreRejectedBeforeExecution() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> Future.succeededFuture(new JsonObject()));
    ToolExecutor ex = executor(tool, 1000, 2, 10, 5);
    EvidenceItem missing = await(ex.call(0, "t", new JsonObject()));
    EvidenceItem extra = await(ex.call(1, "t", new JsonObject().put("q", "x").put("drop", "table")));
    EvidenceItem range = await(ex.call(2, "t", new JsonObject().put("q", "x").put("n", 9)));
    for (EvidenceItem e : List.of(missing, extra, range)) {
      assertFalse(e.success());
      assertTrue(e.error().startsWith("invalid parameters"), e.error());
      assertEquals(0, e.attempts());
    }
    assertTrue(missing.error().contains("q"), missing.error());
    assertEquals(0, tool.calls.get());
    EvidenceItem ok = await(ex.call(3, "t", new JsonObject().put("q", "x").put("n", 5)));
    assertTrue(ok.success());
    assertEquals(3, ok.index());
    assertEquals(1, tool.calls.get());
  }

  @Test
  void transientFailuresAreRetriedWithExponentialBackoff() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> n <= 2 ? Future.failedFuture(new ToolError("busy", true))
        : Future.succeededFuture(new JsonObject().put("ok", n)));
    ToolExecutor ex = executor(tool, 1000, 2, 100, 50);
    long start = System.nanoTime();
    EvidenceItem e = await(ex.call(0, "t", new JsonObject().put("q", "x")));
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(e.success(), e.error());
    assertEquals(3, e.attempts());
    assertEquals(3, e.data().getInteger("ok"));
    // backoff 100 ms then 200 ms
    assertTrue(ms >= 300, "took " + ms + " ms");
  }

  @Test
  void permanentFailuresAreNotRetried() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> Future.failedFuture(new ToolError("no such document", false)));
    EvidenceItem e = await(executor(tool, 1000, 3, 10, 50).call(0, "t", new JsonObject().put("q", "x")));
    assertFalse(e.success());
    assertEquals("no such document", e.error());
    assertEquals(1, tool.calls.get());
  }

  @Test
  void slowCallsTimeOutAndAreRetriedThenGiveUp() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> later(2_000, new JsonObject()));
    ToolExecutor ex = executor(tool, 150, 1, 50, 50);
    assertTrue(ex.validate("t", new JsonObject().put("q", "warm-up")).isEmpty());
    long start = System.nanoTime();
    EvidenceItem e = await(ex.call(0, "t", new JsonObject().put("q", "x")));
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertFalse(e.success());
    assertEquals("timed out", e.error());
    assertEquals(2, e.attempts());
    assertTrue(ms >= 350 && ms < 1_500, "took " + ms + " ms");
  }

  @Test
  void breakerOpensAfterRepeatedFailuresAndFailsFast() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> Future.failedFuture(new ToolError("down", true)));
    ToolExecutor ex = executor(tool, 1000, 0, 10, 3);
    for (int i = 0; i < 3; i++) {
      assertEquals("down", await(ex.call(i, "t", new JsonObject().put("q", "x"))).error());
    }
    assertEquals(CircuitBreakerState.OPEN, ex.breaker("t").state());
    EvidenceItem fast = await(ex.call(3, "t", new JsonObject().put("q", "x")));
    assertEquals("circuit breaker open", fast.error());
    assertEquals(3, tool.calls.get());
  }

  /**
   * The agent's and the decisions' executors run the same tools, each with breakers of its own: each breaker has a
   * gauge of its own, so one opening shows as open while the other's stays closed (with one name for both, the second
   * gauge was ignored and the metric showed the first breaker only).
   */
  @Test
  void twoExecutorsOfOneToolShowTheirOwnBreakers() throws Exception {
    Vertx metered = Metrics.vertxWithMetrics(new VertxOptions(), null);
    try {
      String name = "breaker_probe_" + UUID.randomUUID().toString().replace("-", "");
      ScriptedTool tool = new ScriptedTool(name, n -> Future.failedFuture(new ToolError("down", true)));
      ToolExecutor.Settings settings = new ToolExecutor.Settings(1000, 0, 10, 2, 60_000);
      ToolExecutor agent = new ToolExecutor(metered, List.of(tool), settings);
      ToolExecutor decisions = new ToolExecutor(metered, DecideModule.TOOL_BREAKERS, List.of(tool), settings);
      for (int i = 0; i < 2; i++) {
        assertEquals("down", await(decisions.call(i, name, new JsonObject().put("q", "x"))).error());
      }
      assertEquals(CircuitBreakerState.OPEN, decisions.breaker(name).state());
      assertEquals(CircuitBreakerState.CLOSED, agent.breaker(name).state());
      MeterRegistry registry = ArgusMeters.registry(metered);
      assertEquals(1.0, registry.get(ArgusMeters.BREAKER_STATE).tag("breaker", DecideModule.TOOL_BREAKERS + name).gauge().value());
      assertEquals(0.0, registry.get(ArgusMeters.BREAKER_STATE).tag("breaker", ToolExecutor.AGENT_BREAKERS + name).gauge().value());
    } finally {
      await(metered.close());
    }
  }

  @Test
  void independentCallsRunInParallel() throws Exception {
    ScriptedTool tool = new ScriptedTool("t", n -> later(300, new JsonObject().put("n", n)));
    ToolExecutor ex = executor(tool, 2_000, 0, 10, 50);
    assertTrue(ex.validate("t", new JsonObject().put("q", "warm-up")).isEmpty());
    long start = System.nanoTime();
    List<Future<EvidenceItem>> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      calls.add(ex.call(i, "t", new JsonObject().put("q", "x" + i)));
    }
    await(Future.all(calls));
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ms < 900, "4 x 300 ms calls took " + ms + " ms");
    for (int i = 0; i < 4; i++) {
      assertEquals(i, calls.get(i).result().index());
      assertTrue(calls.get(i).result().success());
    }
  }
}
