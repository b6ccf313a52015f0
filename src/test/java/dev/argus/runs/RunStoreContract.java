package dev.argus.runs;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour every {@link RunStore} implementation must have, run against a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RunStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected RunStore store;

  /** Opens a fresh, migrated database of the dialect under test. */
  protected abstract Future<Database> openDatabase(Vertx vertx);

  /** Drops what {@link #openDatabase} created. */
  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = RunStores.create(db);
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

  private static Run newRun(long now) {
    return Run.start(UUID.randomUUID().toString(), "assistant",
        new RunInput("What is the refund policy?", "default", new JsonObject().put("category", "policy"), "s1"), now);
  }

  @Test
  void savesAndFindsTheWholeRecord() throws Exception {
    Run run = newRun(1000);
    await(store.save(run));
    Run found = await(store.find(run.runId())).orElseThrow();
    assertEquals(run.toJson(), found.toJson());
    assertEquals("policy", found.input().filters().getString("category"));
    assertEquals(RunStatus.RUNNING, found.status());
    assertEquals("think", found.nextPhase());
    assertEquals(Optional.empty(), await(store.find("no-such-run")));
  }

  @Test
  void checkpointReplacesTheRecord() throws Exception {
    Run run = newRun(2000);
    await(store.save(run));
    run.phases().put("think", new JsonObject().put("path", "rules").put("output", new JsonObject().put("intent", "question")));
    run.evidence().add(new JsonObject().put("index", 0).put("tool", "knowledge_search").put("success", true));
    Run next = run.withProgress(RunStatus.RUNNING, "plan", 1, 0, null, 2500);
    await(store.save(next));
    Run found = await(store.find(run.runId())).orElseThrow();
    assertEquals("plan", found.nextPhase());
    assertEquals(1, found.loopCount());
    assertEquals(2500, found.updatedAtMs());
    assertEquals(2000, found.createdAtMs());
    assertEquals("question", found.phases().getJsonObject("think").getJsonObject("output").getString("intent"));
    assertEquals(1, found.evidence().size());

    Run done = next.withProgress(RunStatus.COMPLETED, null, 1, 0, null, 3000)
        .withOutcome(new JsonArray().add(new JsonObject().put("documentId", "d1").put("chunkIndex", 0)),
            new JsonObject().put("verified", true), new JsonObject().put("answer", "x"));
    await(store.save(done));
    Run finished = await(store.find(run.runId())).orElseThrow();
    assertEquals(RunStatus.COMPLETED, finished.status());
    assertEquals("x", finished.result().getString("answer"));
    assertEquals("d1", finished.citations().getJsonObject(0).getString("documentId"));
  }

  @Test
  void findsRunsByStatusOldestFirst() throws Exception {
    String marker = UUID.randomUUID().toString();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Run r = Run.start(marker + "-" + i, "assistant", new RunInput("q" + i, "default", null, null), 10_000 + i);
      ids.add(r.runId());
      await(store.save(i == 1 ? r.withProgress(RunStatus.FAILED, null, 0, 0, "boom", 10_005) : r));
    }
    List<String> running = await(store.findByStatus(RunStatus.RUNNING, 1000)).stream().map(Run::runId)
        .filter(id -> id.startsWith(marker)).toList();
    assertEquals(List.of(ids.get(0), ids.get(2)), running);
    List<Run> failed = await(store.findByStatus(RunStatus.FAILED, 1000)).stream()
        .filter(r -> r.runId().startsWith(marker)).toList();
    assertEquals(1, failed.size());
    assertEquals("boom", failed.get(0).error());
  }

  @Test
  void eventLogIsOrderedAndReplayableAfterAnId() throws Exception {
    String runId = UUID.randomUUID().toString();
    assertEquals(0L, await(store.lastEventId(runId)));
    List<RunEvent> batch = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      batch.add(new RunEvent(runId, i, i == 5 ? RunEvent.FINAL : RunEvent.TOKEN, new JsonObject().put("text", "t" + i), 100 + i));
    }
    // appended in two batches, the second out of order
    await(store.appendEvents(batch.subList(0, 2)));
    await(store.appendEvents(List.of(batch.get(4), batch.get(2), batch.get(3))));
    // a duplicate id is ignored, not an error
    await(store.appendEvents(List.of(new RunEvent(runId, 3, RunEvent.TOKEN, new JsonObject().put("text", "dup"), 1))));
    List<RunEvent> all = await(store.events(runId, 0));
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L), all.stream().map(RunEvent::id).toList());
    assertEquals("t3", all.get(2).data().getString("text"));
    assertTrue(all.get(4).terminal());
    assertFalse(all.get(0).terminal());
    assertEquals(List.of(4L, 5L), await(store.events(runId, 3)).stream().map(RunEvent::id).toList());
    assertEquals(5L, await(store.lastEventId(runId)));
    assertTrue(await(store.events("other-run", 0)).isEmpty());
  }

  @Test
  void concurrentCheckpointsOfManyRunsAllLand() throws Exception {
    List<Future<Void>> writes = new ArrayList<>();
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Run r = newRun(50_000 + i);
      runs.add(r);
      writes.add(store.save(r).compose(v -> store.save(r.withProgress(RunStatus.COMPLETED, null, 0, 0, null, 60_000))));
    }
    await(Future.all(writes));
    for (Run r : runs) {
      assertEquals(RunStatus.COMPLETED, await(store.find(r.runId())).orElseThrow().status());
    }
  }

  @Test
  void sessionTurnsKeepTheNewestAndExpire() throws Exception {
    String session = "session-" + UUID.randomUUID();
    for (int i = 1; i <= 5; i++) {
      await(store.appendTurn(new SessionTurn(session, "run-" + i, "question " + i, "standalone " + i, "answer " + i,
          10_000L + i), 3));
    }
    // only the newest 3 are kept; read oldest first
    List<SessionTurn> recent = await(store.recentTurns(session, 0, 10));
    assertEquals(List.of("run-3", "run-4", "run-5"), recent.stream().map(SessionTurn::runId).toList());
    assertEquals("standalone 5", recent.get(2).standalone());
    assertEquals("answer 4", recent.get(1).answer());
    // a limit keeps the newest of them
    assertEquals(List.of("run-4", "run-5"), await(store.recentTurns(session, 0, 2)).stream().map(SessionTurn::runId)
        .toList());
    // turns older than the TTL are not read, and purged
    assertEquals(List.of("run-5"), await(store.recentTurns(session, 10_005L, 10)).stream().map(SessionTurn::runId)
        .toList());
    // the same run again replaces its turn
    await(store.appendTurn(new SessionTurn(session, "run-5", "question 5", "standalone 5b", "answer 5b", 10_006L), 3));
    assertEquals("answer 5b", await(store.recentTurns(session, 10_006L, 10)).get(0).answer());
    assertTrue(await(store.purgeTurns(10_005L)) >= 2);
    assertEquals(List.of("run-5"), await(store.recentTurns(session, 0, 10)).stream().map(SessionTurn::runId).toList());
    // other sessions are untouched by trimming
    await(store.appendTurn(new SessionTurn("other-" + session, "run-x", "q", "q", "a", 20_000L), 1));
    assertEquals(1, await(store.recentTurns(session, 0, 10)).size());
    assertEquals(List.of(), await(store.recentTurns("no-such-session", 0, 10)));
  }

  @Test
  void purgesEndedRunsOlderThanTheCutoffWithTheirEvents() throws Exception {
    // constructed old runs (timestamps below every other test's, which start at 1000): cutoff 500
    Run completed = newRun(100).withProgress(RunStatus.COMPLETED, null, 0, 0, null, 150);
    Run failed = newRun(200).withProgress(RunStatus.FAILED, null, 0, 0, "boom", 250);
    Run running = newRun(300).withProgress(RunStatus.RUNNING, "act", 0, 0, null, 350);
    Run recent = newRun(400).withProgress(RunStatus.COMPLETED, null, 0, 0, null, 700);
    for (Run r : List.of(completed, failed, running, recent)) {
      await(store.save(r));
      await(store.appendEvents(List.of(new RunEvent(r.runId(), 1, RunEvent.RUN, new JsonObject(), r.createdAtMs()),
          new RunEvent(r.runId(), 2, RunEvent.FINAL, new JsonObject(), r.updatedAtMs()))));
    }
    RunStore.Purged purged = await(store.purgeRuns(500));
    // completed (updated 150) and failed (250) go, 2 events each: 2 runs, 4 events
    assertEquals(2, purged.runs());
    assertEquals(4, purged.events());
    assertFalse(await(store.find(completed.runId())).isPresent());
    assertFalse(await(store.find(failed.runId())).isPresent());
    assertEquals(List.of(), await(store.events(completed.runId(), 0)));
    // a running run is never purged, however old; a recent one stays with its events
    assertTrue(await(store.find(running.runId())).isPresent());
    assertEquals(2, await(store.events(running.runId(), 0)).size());
    assertTrue(await(store.find(recent.runId())).isPresent());
    assertEquals(2, await(store.events(recent.runId(), 0)).size());
    // nothing left to purge below the cutoff
    assertEquals(0, await(store.purgeRuns(500)).runs());
  }

  // ---- run leases (cluster mode) ----------------------------------------------------------------

  @Test
  void aLeaseIsTakenOnceAndRenewedByItsNode() throws Exception {
    RunLeases leases = new RunLeases(db);
    Run run = newRun(10_000);
    assertTrue(await(leases.acquire(run.runId(), "node-a", 10_000, 5_000)));
    assertFalse(await(leases.acquire(run.runId(), "node-b", 10_000, 5_000)), "a second lease on one run");
    await(store.save(run));
    assertTrue(await(leases.renew("node-a", 12_000, 5_000)).contains(run.runId()));
    assertEquals(17_000, await(leases.find(run.runId())).orElseThrow().expiresAtMs());
    assertFalse(await(leases.renew("node-b", 12_000, 5_000)).contains(run.runId()));
    // valid until 17 000: not takeable by another node before, takeable after
    assertFalse(await(leases.takeable("node-b", 16_999, 100)).contains(run.runId()));
    assertTrue(await(leases.takeOver(run.runId(), "node-b", 16_999, 5_000)).isEmpty());
    assertTrue(await(leases.takeable("node-b", 17_001, 100)).contains(run.runId()));
  }

  @Test
  void anExpiredLeaseGoesToExactlyOneNodeAndIsLostByTheOld() throws Exception {
    RunLeases leases = new RunLeases(db);
    Run run = newRun(20_000);
    assertTrue(await(leases.acquire(run.runId(), "node-a", 20_000, 1_000)));
    await(store.save(run));
    List<Future<Optional<RunLeases.Lease>>> claims = new ArrayList<>();
    for (String node : List.of("node-b", "node-c", "node-d")) {
      claims.add(leases.takeOver(run.runId(), node, 30_000, 5_000));
    }
    await(Future.join(new ArrayList<>(claims)));
    List<String> winners = new ArrayList<>();
    for (Future<Optional<RunLeases.Lease>> c : claims) {
      c.result().ifPresent(l -> winners.add(l.nodeId()));
    }
    assertEquals(1, winners.size(), "exactly one node takes the run over: " + winners);
    RunLeases.Lease lease = await(leases.find(run.runId())).orElseThrow();
    assertEquals(winners.get(0), lease.nodeId());
    assertEquals(1, lease.takeovers());
    assertEquals(35_000, lease.expiresAtMs());
    // the old node learns at its next renewal, or when it confirms before ending the run, that it no longer holds it
    assertFalse(await(leases.renew("node-a", 30_001, 1_000)).contains(run.runId()));
    assertFalse(await(leases.confirm(run.runId(), "node-a", 30_002, 1_000)));
    assertTrue(await(leases.confirm(run.runId(), winners.get(0), 30_003, 5_000)));
    assertEquals(35_003, await(leases.find(run.runId())).orElseThrow().expiresAtMs());
    // its release does not drop the new holder's lease; the holder's does
    assertFalse(await(leases.release(run.runId(), "node-a")));
    assertTrue(await(leases.release(run.runId(), winners.get(0))));
    assertTrue(await(leases.find(run.runId())).isEmpty());
  }

  @Test
  void onlyRunningRunsAreTakeableAndARestartedNodeTakesBackItsOwn() throws Exception {
    RunLeases leases = new RunLeases(db);
    Run ended = newRun(40_000).withProgress(RunStatus.COMPLETED, null, 0, 0, null, 40_100);
    await(store.save(ended));
    assertTrue(await(leases.acquire(ended.runId(), "node-a", 40_000, 1_000)));
    Run mine = newRun(40_000);
    await(store.save(mine));
    assertTrue(await(leases.acquire(mine.runId(), "node-a", 40_000, 60_000)));
    Run orphan = newRun(40_000); // running with no lease (e.g. started before cluster mode)
    await(store.save(orphan));
    List<String> forB = await(leases.takeable("node-b", 50_000, 1_000));
    assertFalse(forB.contains(ended.runId()), "an ended run is never taken over");
    assertFalse(forB.contains(mine.runId()), "a valid lease of another node");
    assertTrue(forB.contains(orphan.runId()));
    List<String> forA = await(leases.takeable("node-a", 50_000, 1_000));
    assertTrue(forA.contains(mine.runId()), "the same node id after a restart takes its runs back at once");
    RunLeases.Lease back = await(leases.takeOver(mine.runId(), "node-a", 50_000, 5_000)).orElseThrow();
    assertEquals("node-a", back.nodeId());
    assertEquals(1, back.takeovers());
    RunLeases.Lease claimed = await(leases.takeOver(orphan.runId(), "node-b", 50_000, 5_000)).orElseThrow();
    assertEquals(1, claimed.takeovers());
    // a sweep deletes long-expired leases of runs that are not running (never recorded, or ended), nothing else
    assertTrue(await(leases.acquire("never-recorded-" + mine.runId(), "node-c", 40_000, 1_000)));
    assertEquals(2, await(leases.sweep(45_000)), "the ended run's and the unrecorded run's");
    assertTrue(await(leases.find(ended.runId())).isEmpty());
    assertTrue(await(leases.find("never-recorded-" + mine.runId())).isEmpty());
    assertEquals("node-a", await(leases.find(mine.runId())).orElseThrow().nodeId());
  }

  @Test
  void listsRecentRunsNewestFirstWithLimitStatusAndCursor() throws Exception {
    // hand-made runs far above every other test's clock, so the cursor below isolates them
    long base = 7_000_000_000_000L;
    String longQuestion = "q".repeat(250);
    Run a = Run.start("recent-a", "assistant", new RunInput("first?", "default", null, null), base + 1)
        .withProgress(RunStatus.COMPLETED, null, 0, 0, null, base + 11);
    Run b = Run.start("recent-b", "fraud", new RunInput(longQuestion, "cases", null, null), base + 2)
        .withProgress(RunStatus.FAILED, null, 0, 0, "boom", base + 12);
    Run c = Run.start("recent-c", "assistant", new RunInput("third?", "default", null, null), base + 3);
    Run d = Run.start("recent-d", "assistant", new RunInput("fourth?", "default", null, null), base + 3)
        .withProgress(RunStatus.COMPLETED, null, 0, 0, null, base + 13); // same ms as c: run id breaks the tie
    Run e = Run.start("recent-e", "onboarding", new RunInput("decision onboarding S-1", null, null, null), base);
    for (Run r : List.of(c, a, e, d, b)) {
      await(store.save(r));
    }
    long top = base + 100;

    List<RunSummary> all = await(store.recent(4, top, null)); // older runs of other tests lie below ours
    assertEquals(List.of("recent-d", "recent-c", "recent-b", "recent-a"), all.stream().map(RunSummary::runId).toList());
    RunSummary first = all.get(0);
    assertEquals("assistant", first.profile());
    assertEquals(RunStatus.COMPLETED, first.status());
    assertEquals("fourth?", first.question());
    assertEquals(base + 3, first.createdAtMs());
    assertEquals(base + 13, first.updatedAtMs());
    assertEquals(base + 13, first.toJson().getLong("finishedAt"));
    assertFalse(all.get(1).toJson().containsKey("finishedAt")); // c is still running
    assertEquals("q".repeat(200), all.get(2).question()); // cut to 200 characters
    assertEquals("fraud", all.get(2).profile());

    assertEquals(List.of("recent-d", "recent-c"), await(store.recent(2, top, null)).stream().map(RunSummary::runId).toList());
    // the next page: strictly before the last one's creation time
    assertEquals(List.of("recent-b", "recent-a"),
        await(store.recent(2, base + 3, null)).stream().map(RunSummary::runId).toList());
    assertEquals(List.of("recent-d", "recent-a"),
        await(store.recent(2, top, RunStatus.COMPLETED)).stream().map(RunSummary::runId).toList());
    assertEquals(List.of("recent-b"), await(store.recent(1, top, RunStatus.FAILED)).stream().map(RunSummary::runId).toList());
    assertEquals(List.of("recent-a"),
        await(store.recent(1, base + 2, RunStatus.COMPLETED)).stream().map(RunSummary::runId).toList());
    // without a cursor the newest runs of the whole store come first: ours are the newest
    assertEquals(List.of("recent-d"), await(store.recent(1, null, null)).stream().map(RunSummary::runId).toList());
    // a namespace limit: only runs asked in one of the namespaces; a run without one (a decision's) never
    assertEquals(List.of("recent-b"),
        await(store.recent(4, top, null, List.of("cases"))).stream().map(RunSummary::runId).toList());
    List<String> limited = await(store.recent(RunStore.MAX_RECENT, top, null, List.of("cases", "default")))
        .stream().map(RunSummary::runId).toList();
    assertEquals(List.of("recent-d", "recent-c", "recent-b", "recent-a"), limited.subList(0, 4));
    assertFalse(limited.contains("recent-e"));
    assertEquals(List.of("recent-d", "recent-a"),
        await(store.recent(2, top, RunStatus.COMPLETED, List.of("default"))).stream().map(RunSummary::runId).toList());
    assertEquals(List.of(), await(store.recent(4, top, null, List.of())));
    assertEquals(List.of("recent-e"),
        await(store.recent(1, base + 1, null, null)).stream().map(RunSummary::runId).toList());
    for (int bad : new int[] {0, -1, RunStore.MAX_RECENT + 1}) {
      assertTrue(store.recent(bad, null, null).toCompletionStage().toCompletableFuture().isCompletedExceptionally());
    }
  }
}
