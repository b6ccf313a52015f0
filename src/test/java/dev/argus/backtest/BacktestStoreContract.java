package dev.argus.backtest;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.UUID;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the {@link BacktestStore} must do on a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BacktestStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected BacktestStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = new BacktestStore(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static JsonObject job(String id, String status) {
    return new JsonObject().put("backtestId", id).put("status", status).put("subjects", 2);
  }

  @Test
  void aJobIsSavedRunningThenReplacedWhenItEndsWithItsReportAndVerdicts() {
    String id = UUID.randomUUID().toString();
    await(store.save(job(id, "running"), null, 1_000));
    BacktestStore.Stored running = await(store.get(id)).orElseThrow();
    assertEquals("running", running.job().getString("status"));
    assertTrue(running.verdicts().isEmpty());
    JsonObject report = new JsonObject().put("profiles", new JsonObject().put("seller_onboarding", new JsonObject()));
    JsonArray verdicts = new JsonArray().add(new JsonObject().put("subjectId", "S-1").put("outcome", "REJECT"))
        .add(new JsonObject().put("subjectId", "S-2").put("outcome", "APPROVE"));
    await(store.save(job(id, "completed").put("report", report), verdicts, 1_000));
    BacktestStore.Stored done = await(store.get(id)).orElseThrow();
    assertEquals("completed", done.job().getString("status"));
    assertEquals(report, done.job().getJsonObject("report"));
    assertEquals(verdicts, done.verdicts());
    assertFalse(await(store.get(UUID.randomUUID().toString())).isPresent());
  }

  @Test
  void listIsNewestFirstWithoutReportsAndInterruptedJobsAreMarkedFailed() {
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    await(store.save(job(a, "completed").put("report", new JsonObject().put("x", 1)), new JsonArray(), 5_000_000_000L));
    await(store.save(job(b, "running"), null, 6_000_000_000L));
    List<JsonObject> list = await(store.list(2));
    assertEquals(List.of(b, a), list.stream().map(j -> j.getString("backtestId")).toList());
    assertFalse(list.get(1).containsKey("report"), "the list leaves reports out");
    int marked = await(store.failInterrupted("interrupted"));
    assertTrue(marked >= 1, "at least the running job b: " + marked);
    JsonObject after = await(store.get(b)).orElseThrow().job();
    assertEquals("failed", after.getString("status"));
    assertEquals("interrupted", after.getString("error"));
    assertEquals("completed", await(store.get(a)).orElseThrow().job().getString("status"), "finished jobs untouched");
  }
}
