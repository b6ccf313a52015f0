package dev.argus.eval.online;

import dev.argus.bus.Addresses;
import dev.argus.config.EvalConf;
import dev.argus.config.Settings;
import dev.argus.eval.judge.LlmJudge;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.EvalStores;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The evaluator's queue is bounded: with one evaluation running and one waiting, a third completion is dropped and
 * counted; a run that did not complete is skipped; the waiting one starts when the running one ends. The run record
 * comes from a stand-in {@code argus.agent.run.get} consumer that answers when told (a coordinator under load).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EvaluatorQueueTest {

  private Vertx vertx;
  private Database db;
  private EvalStore store;

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    db = await(Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db")));
    store = EvalStores.create(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static JsonObject run(String id) {
    return new JsonObject().put("runId", id).put("profile", "assistant")
        .put("input", new JsonObject().put("question", "refund window"))
        .put("result", new JsonObject().put("answer", "The refund window is 30 days. [cite:p:0]").put("kind", "answer"))
        .put("evidence", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
            .put("tool", "knowledge_search").put("success", true).put("data", new JsonObject().put("results",
                new io.vertx.core.json.JsonArray().add(new JsonObject().put("documentId", "p").put("chunkIndex", 0)
                    .put("text", "The refund window is 30 days."))))));
  }

  @Test
  void theQueueIsBoundedAndDrains() throws Exception {
    List<Message<JsonObject>> pending = new CopyOnWriteArrayList<>();
    await(vertx.eventBus().<JsonObject>consumer(Addresses.AGENT_RUN_GET, pending::add).completion());
    EvalConf conf = EvalConf.from(new Settings("eval", new JsonObject().put("maxConcurrent", 1).put("maxQueued", 1)
        .put("runFetchTimeoutMs", 20_000)));
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<Evaluator> made = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      Evaluator e = new Evaluator(vertx, conf, store, new LlmJudge(null, 1000, 1000));
      e.onRunCompleted(new JsonObject().put("runId", "q1").put("status", "completed"));
      e.onRunCompleted(new JsonObject().put("runId", "q2").put("status", "completed"));
      e.onRunCompleted(new JsonObject().put("runId", "q3").put("status", "completed"));
      e.onRunCompleted(new JsonObject().put("runId", "q4").put("status", "failed"));
      made.complete(e);
    });
    Evaluator e = made.get(10, TimeUnit.SECONDS);
    JsonObject c = counters(ctx, e);
    assertEquals(1, c.getInteger("running"));
    assertEquals(1, c.getInteger("queued"));
    assertEquals(1, c.getLong("dropped"));
    assertEquals(1, c.getLong("skipped"));
    // the first answers; then the queued one asks and is answered
    waitUntil(() -> pending.size() == 1);
    pending.get(0).reply(run("q1"));
    waitUntil(() -> pending.size() == 2);
    assertEquals("q2", pending.get(1).body().getString("runId"));
    pending.get(1).reply(run("q2"));
    waitUntil(() -> {
      try {
        return counters(ctx, e).getLong("evaluated") == 2;
      } catch (Exception ex) {
        return false;
      }
    });
    assertEquals(1.0, await(store.find("q2")).orElseThrow().scorecard().get(dev.argus.eval.score.Metric.GROUNDEDNESS));
    assertEquals(0, counters(ctx, e).getInteger("running"));
  }

  private static JsonObject counters(Context ctx, Evaluator e) throws Exception {
    CompletableFuture<JsonObject> out = new CompletableFuture<>();
    ctx.runOnContext(v -> out.complete(e.counters()));
    return out.get(10, TimeUnit.SECONDS);
  }

  private static void waitUntil(java.util.function.BooleanSupplier cond) throws InterruptedException {
    for (int i = 0; i < 300 && !cond.getAsBoolean(); i++) {
      Thread.sleep(50);
    }
    if (!cond.getAsBoolean()) {
      throw new AssertionError("condition not met in 15 s");
    }
  }
}
