package dev.argus.ingest;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@link JobStore} contract, run on SQLite ({@link SqliteJobStoreTest}) and PostgreSQL ({@link PgJobStoreTest}). */
abstract class JobStoreContract {

  private Vertx vertx;
  private Database db;
  private JobStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() {
  }

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = JobStore.of(db);
  }

  @AfterEach
  void close() {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  private static JsonObject job(String id, String status) {
    return new JsonObject().put("jobId", id).put("status", status).put("total", 2).put("processed", 1)
        .put("created", 1).put("failed", 0)
        .put("documents", new JsonArray().add(new JsonObject().put("id", "d1").put("outcome", "created").put("chunks", 3)))
        .put("createdAt", Instant.now().toString()).put("lastEventId", 4);
  }

  @Test
  void savedJobsAreFoundAsSavedAndSavingAgainReplaces() {
    JsonObject queued = job("job-1", "queued");
    await(store.save(queued));
    assertEquals(Optional.of(queued), await(store.find("job-1")));
    JsonObject done = queued.copy().put("status", "completed").put("processed", 2);
    await(store.save(done));
    assertEquals(Optional.of(done), await(store.find("job-1")));
    assertEquals(Optional.empty(), await(store.find("job-2")));
  }

  @Test
  void unfinishedJobsAreMarkedInterruptedAndFinishedOnesStay() {
    await(store.save(job("q", "queued")));
    await(store.save(job("r", "running")));
    await(store.save(job("c", "completed")));
    await(store.save(job("f", "failed")));
    assertEquals(2, await(store.markInterrupted()));
    for (String id : new String[] {"q", "r"}) {
      JsonObject j = await(store.find(id)).orElseThrow();
      assertEquals("interrupted", j.getString("status"));
      assertNotNull(j.getString("finishedAt"));
      assertTrue(j.getString("error").startsWith("interrupted"), j.encode());
      assertEquals(1, j.getJsonArray("documents").size(), "the documents already stored stay listed");
    }
    assertEquals("completed", await(store.find("c")).orElseThrow().getString("status"));
    assertEquals(0, await(store.markInterrupted()), "nothing left to mark");
  }

  @Test
  void oldFinishedJobsAreDeletedUnfinishedOnesNever() {
    await(store.save(job("old-done", "completed")));
    await(store.save(job("old-running", "running")));
    assertEquals(1, await(store.deleteFinishedBefore(System.currentTimeMillis() + 60_000)));
    assertEquals(Optional.empty(), await(store.find("old-done")));
    assertTrue(await(store.find("old-running")).isPresent());
    assertEquals(0, await(store.deleteFinishedBefore(System.currentTimeMillis() - 60_000)));
  }

  @Test
  void aNulInAJobNeverBreaksTheWrite() {
    JsonObject job = job("nul-job", "failed").put("error", "bad\u0000byte");
    await(store.save(job));
    assertEquals("bad\ufffdbyte", await(store.find("nul-job")).orElseThrow().getString("error"));
  }

  @Test
  void aJobsRequestIsKeptUntilItFinishes() {
    JsonObject request = new JsonObject().put("documents", new JsonArray().add(new JsonObject().put("id", "d1")
        .put("content", "with a nul \u0000 inside"))).put("rejected", new JsonArray()).put("replace", "auto");
    await(store.create(job("kept", "running"), request));
    await(store.save(job("bare", "queued"))); // recorded without a request (as before migration V17)
    await(store.create(job("over", "completed"), request));
    var unfinished = await(store.unfinished());
    assertEquals(2, unfinished.size(), "queued and running only: " + unfinished);
    JobStore.Unfinished kept = unfinished.stream().filter(u -> u.job().getString("jobId").equals("kept")).findFirst()
        .orElseThrow();
    assertEquals(request, kept.request());
    assertEquals(0, kept.attempts());
    assertEquals(0, kept.progress());
    assertEquals(null, unfinished.stream().filter(u -> u.job().getString("jobId").equals("bare")).findFirst()
        .orElseThrow().request());
    await(store.resuming("kept", 2, 1));
    JobStore.Unfinished resumed = await(store.unfinished()).stream()
        .filter(u -> u.job().getString("jobId").equals("kept")).findFirst().orElseThrow();
    assertEquals(2, resumed.attempts());
    assertEquals(1, resumed.progress());
    await(store.save(job("kept", "completed")));
    await(store.interrupt(job("bare", "queued"), "test"));
    assertEquals(0, await(store.unfinished()).size(), "finished jobs keep no request");
    assertEquals("interrupted", await(store.find("bare")).orElseThrow().getString("status"));
  }
}
