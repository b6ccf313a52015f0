package dev.argus.cluster;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.runs.PgRunStore;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunInput;
import dev.argus.runs.RunLeases;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run ends once even when its node stalls past its lease (a long GC pause, SIGSTOP) between confirming the lease
 * and writing the run's end: the end is written by {@code RunStore.endLeased}, in one PostgreSQL transaction that
 * locks the lease row and writes only if the node still holds it at the hand-over count it drove the run at. Real
 * PostgreSQL, real {@link RunLeases} claims from a second "node".
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FencedRunEndTest {

  private static final String A = "127.0.0.1:5901";
  private static final String B = "127.0.0.1:5902";

  private Vertx vertx;
  private PgTestDatabase pg;
  private Database db;
  private RunStore store;
  private RunLeases leases;

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    db = await(Database.postgres(vertx, pg.conf()));
    store = new PgRunStore(db.pool());
    leases = new RunLeases(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    pg.close();
  }

  @Test
  void aNodeStalledPastItsLeaseDoesNotEndTheRunItsTakerEnded() throws Exception {
    long now = System.currentTimeMillis();
    Run run = running("stalled-1", now);
    // node A starts the run with a lease that has already expired (A stalled right after confirming it)
    assertTrue(await(leases.acquire(run.runId(), A, now - 10_000, 1_000)));
    await(store.save(run));
    // node B's scan claims it: hand-over 1
    Optional<RunLeases.Lease> claimed = await(leases.takeOver(run.runId(), B, now, 10_000));
    assertEquals(1, claimed.orElseThrow().takeovers());
    // B resumes and ends it (its final event is the run's event 5)
    assertTrue(await(store.endLeased(ended(run, RunStatus.COMPLETED), List.of(terminal(run, 5, RunEvent.FINAL)), B, 1)));
    // A wakes up and writes its own end (event 6) under its old lease (A, hand-over 0): nothing is written
    assertFalse(await(store.endLeased(ended(run, RunStatus.FAILED), List.of(terminal(run, 6, RunEvent.ERROR)), A, 0)));
    List<RunEvent> events = await(store.events(run.runId(), 0));
    assertEquals(List.of(5L), events.stream().map(RunEvent::id).toList());
    assertEquals(RunStatus.COMPLETED, await(store.find(run.runId())).orElseThrow().status());
    assertEquals(Optional.empty(), await(leases.find(run.runId())), "the end drops the lease in the same transaction");
  }

  @Test
  void theSameNodeRestartedDoesNotEndARunUnderItsEarlierLife() throws Exception {
    long now = System.currentTimeMillis();
    Run run = running("restarted-1", now);
    assertTrue(await(leases.acquire(run.runId(), A, now, 10_000)));
    await(store.save(run));
    // A restarted under the same node id takes its run back at once (hand-over 1): its earlier life's end is refused
    assertEquals(1, await(leases.takeOver(run.runId(), A, now, 10_000)).orElseThrow().takeovers());
    assertFalse(await(store.endLeased(ended(run, RunStatus.COMPLETED), List.of(terminal(run, 3, RunEvent.FINAL)), A, 0)));
    assertTrue(await(store.endLeased(ended(run, RunStatus.COMPLETED), List.of(terminal(run, 4, RunEvent.FINAL)), A, 1)));
    assertEquals(List.of(4L), await(store.events(run.runId(), 0)).stream().map(RunEvent::id).toList());
  }

  /**
   * The race itself, 40 times: the stalled owner's end and another node's claim run at the same moment on runs whose
   * lease expired. Whichever commits first wins; the claimer ends the run only if it still finds it running after
   * its claim (as RunRecovery does). Every run must have exactly one terminal event (A's is id 5, B's id 6).
   */
  @Test
  void anEndRacingAClaimEndsEachRunOnce() throws Exception {
    int n = 40;
    long now = System.currentTimeMillis();
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Run run = running("race-" + i, now);
      await(leases.acquire(run.runId(), A, now - 10_000, 1_000));
      await(store.save(run));
      Future<Boolean> ownerEnds = store.endLeased(ended(run, RunStatus.COMPLETED),
          List.of(terminal(run, 5, RunEvent.FINAL)), A, 0);
      Future<Void> takerEnds = leases.takeOver(run.runId(), B, System.currentTimeMillis(), 10_000)
          .compose(lease -> lease.isEmpty() ? Future.succeededFuture()
              : store.find(run.runId()).compose(found -> found.orElseThrow().status() != RunStatus.RUNNING
                  ? leases.release(run.runId(), B).mapEmpty()
                  : store.endLeased(ended(run, RunStatus.FAILED), List.of(terminal(run, 6, RunEvent.ERROR)), B,
                      lease.get().takeovers()).mapEmpty()));
      all.add(Future.join(ownerEnds, takerEnds).mapEmpty());
    }
    await(Future.join(all));
    for (int i = 0; i < n; i++) {
      String id = "race-" + i;
      long terminals = await(store.events(id, 0)).stream().filter(RunEvent::terminal).count();
      assertEquals(1, terminals, "run " + id + " must end exactly once");
      assertTrue(await(store.find(id)).orElseThrow().status() != RunStatus.RUNNING);
    }
  }

  private static Run running(String id, long now) {
    return Run.start(id, "default", new RunInput("q " + id, null, null, null), now);
  }

  private static Run ended(Run run, RunStatus status) {
    return run.withProgress(status, null, 0, 0, status == RunStatus.FAILED ? "failed" : null,
        System.currentTimeMillis());
  }

  private static RunEvent terminal(Run run, long id, String type) {
    return new RunEvent(run.runId(), id, type, new JsonObject().put("runId", run.runId()), System.currentTimeMillis());
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
