package dev.argus.observe;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour every {@link TraceStore} must have, against a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TraceStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected TraceStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = TraceStore.create(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static RunTrace trace(String runId, long createdAt, int spans) {
    JsonArray a = new JsonArray();
    for (int i = 0; i < spans; i++) {
      a.add(new JsonObject().put("spanId", "s" + i).put("name", i == 0 ? "run chat" : "phase think")
          .put("startMs", createdAt - 10.5 + i).put("attributes", new JsonObject().put("argus.run.id", runId)));
    }
    return new RunTrace(runId, UUID.randomUUID().toString().replace("-", ""), createdAt, a);
  }

  @Test
  void savesFindsAndReplaces() throws Exception {
    String runId = "run-" + UUID.randomUUID();
    RunTrace t = trace(runId, 5_000, 3);
    await(store.save(t));
    assertEquals(t.toJson(), await(store.find(runId)).orElseThrow().toJson());
    RunTrace again = trace(runId, 6_000, 1);
    await(store.save(again));
    RunTrace found = await(store.find(runId)).orElseThrow();
    assertEquals(again.traceId(), found.traceId());
    assertEquals(1, found.spans().size());
    assertFalse(await(store.find("no-such-run")).isPresent());
  }

  @Test
  void purgesTracesOlderThanTheCutoff() throws Exception {
    // constructed old traces, below the other test's timestamps (5000+): cutoff 300
    RunTrace old1 = trace("old-" + UUID.randomUUID(), 100, 2);
    RunTrace old2 = trace("old-" + UUID.randomUUID(), 200, 2);
    RunTrace kept = trace("kept-" + UUID.randomUUID(), 300, 2);
    for (RunTrace t : new RunTrace[] {old1, old2, kept}) {
      await(store.save(t));
    }
    assertEquals(2, await(store.purge(300)));
    assertFalse(await(store.find(old1.runId())).isPresent());
    assertFalse(await(store.find(old2.runId())).isPresent());
    assertTrue(await(store.find(kept.runId())).isPresent());
    assertEquals(0, await(store.purge(300)));
  }
}
