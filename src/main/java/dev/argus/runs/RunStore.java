package dev.argus.runs;

import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;

/**
 * Runs, their checkpoints, their ordered event logs and the turns of chat sessions. Two implementations (embedded SQLite and PostgreSQL) pass
 * one contract test suite ({@code RunStoreContract}). Every method is non-blocking.
 */
public interface RunStore {

  /** Inserts the run or replaces its checkpoint (the whole record, atomically). */
  Future<Void> save(Run run);

  Future<Optional<Run>> find(String runId);

  /** Runs in a status, oldest first (the coordinator resumes {@code RUNNING} ones at start). */
  Future<List<Run>> findByStatus(RunStatus status, int limit);

  /** The most runs {@link #recent} lists at once. */
  int MAX_RECENT = 200;

  /**
   * The newest runs first (by creation time, then run id descending), at most {@code limit} (1..{@value #MAX_RECENT}),
   * created strictly before {@code beforeMs} when given (the cursor of the next page), only those in {@code status}
   * when given.
   */
  default Future<List<RunSummary>> recent(int limit, Long beforeMs, RunStatus status) {
    return recent(limit, beforeMs, status, null);
  }

  /**
   * {@link #recent(int, Long, RunStatus)} limited to the runs asked in one of {@code namespaces} (null: no limit; a
   * run without a namespace, such as a decision's, is then left out).
   */
  Future<List<RunSummary>> recent(int limit, Long beforeMs, RunStatus status, List<String> namespaces);

  /** Appends events to their runs' logs; ids are assigned by the caller and unique per run (duplicates are ignored). */
  Future<Void> appendEvents(List<RunEvent> events);

  /**
   * Cluster mode, a run's end fenced by its lease: in one transaction, locks the run's lease and, only if
   * {@code nodeId} still holds it at hand-over count {@code fence}, appends {@code events} (its terminal ones), saves
   * the ended record and deletes the lease. A node stalled past its lease (a GC pause, SIGSTOP) whose run another node
   * took over writes nothing: the taker's claim either committed first (no match here) or waits on the lock and then
   * finds the run ended. Completes with whether it wrote.
   */
  Future<Boolean> endLeased(Run ended, List<RunEvent> events, String nodeId, int fence);

  /** The events of a run with {@code id > afterId}, in id order. */
  Future<List<RunEvent>> events(String runId, long afterId);

  /** The highest event id of a run, 0 when it has none. */
  Future<Long> lastEventId(String runId);

  /** Stores a session turn (again for the same run: replaced), then keeps only the newest {@code keep} of its session. */
  Future<Void> appendTurn(SessionTurn turn, int keep);

  /** The newest turns of a session created at or after {@code sinceMs}, at most {@code limit}, oldest first. */
  Future<List<SessionTurn>> recentTurns(String sessionId, long sinceMs, int limit);

  /**
   * Deletes the runs that ended ({@code completed} or {@code failed}) and were last updated before {@code beforeMs},
   * with their event logs; running runs are never purged. Completes with {@code {runs, events}} deleted.
   */
  Future<Purged> purgeRuns(long beforeMs);

  /** What a purge deleted. */
  record Purged(int runs, int events) {
    public io.vertx.core.json.JsonObject toJson() {
      return new io.vertx.core.json.JsonObject().put("runs", runs).put("events", events);
    }
  }

  /** Deletes the turns created before {@code beforeMs}; completes with how many. */
  Future<Integer> purgeTurns(long beforeMs);
}
