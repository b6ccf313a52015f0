package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * Runs made elsewhere that the coordinator records: decisions ({@code argus.decide.*} runs from start to stored record
 * on one node). A single process stores a decision's run once it ended ({@link #finish}). In cluster mode a decision
 * is also a leased run while it runs: {@link #begin} takes its lease on this node and stores it {@code running} with
 * next phase {@value #DECISION_PHASE}; this node's renewals keep the lease; {@link #finish} stores the end fenced by
 * the lease ({@code RunStore#endLeased}). When the node dies mid-decision another node takes the lease over like a
 * chat run's and {@link #takeOver ends the run failed with the reason}: a decision is not resumed half-way (its
 * caller asks again; on the bus it may reuse the run id, and the decision is then recorded once, V14_1).
 *
 * <p>Used from the coordinator verticle's context only.
 */
final class RecordedRuns {

  private static final Logger LOG = Logger.getLogger(RecordedRuns.class.getName());
  /** The next phase a running decision run is stored with: it marks a decision for the node that takes it over. */
  static final String DECISION_PHASE = "decision";

  private final Vertx vertx;
  private final RunStore store;
  /** Null in a single process. */
  private final RunOwnership ownership;
  private final Predicate<String> liveHere;
  /** Cluster mode: the decision runs this node holds the lease of (begun, not finished). */
  private final Set<String> inFlight = new HashSet<>();

  RecordedRuns(Vertx vertx, RunStore store, RunOwnership ownership, Predicate<String> liveHere) {
    this.vertx = vertx;
    this.store = store;
    this.ownership = ownership;
    this.liveHere = liveHere;
  }

  /** The decision runs in flight on this node (never taken over by its own scans). */
  Set<String> inFlight() {
    return inFlight;
  }

  /**
   * A decision starts: cluster mode takes its lease (409 {@code duplicate_run} when its run id has one) and stores
   * it running; a single process does nothing until it ends.
   */
  Future<Void> begin(Run running) {
    if (ownership == null) {
      return Future.succeededFuture();
    }
    String runId = running.runId();
    if (running.status() != RunStatus.RUNNING || !DECISION_PHASE.equals(running.nextPhase())) {
      return Future.failedFuture(ApiException.badRequest("invalid_run", "a decision run begins running, next phase "
          + DECISION_PHASE));
    }
    return ownership.acquire(runId).compose(ok -> {
      if (!ok || liveHere.test(runId)) {
        return Future.failedFuture(new ApiException(409, "duplicate_run", "run " + runId + " already exists"));
      }
      inFlight.add(runId);
      return store.save(running).onFailure(err -> inFlight.remove(runId));
    });
  }

  /** Stores a finished run made elsewhere (a decision) and its events: replayed like the coordinator's own runs. */
  Future<Void> finish(Run run, List<RunEvent> events) {
    if (run.status() == RunStatus.RUNNING || liveHere.test(run.runId())) {
      return Future.failedFuture(ApiException.badRequest("invalid_run",
          "only a finished run that is not live here can be recorded"));
    }
    if (ownership == null || !inFlight.contains(run.runId())) {
      return store.save(run).compose(v -> events.isEmpty() ? Future.succeededFuture() : store.appendEvents(events));
    }
    return store.endLeased(run, events, ownership.nodeId(), 0).map(mine -> {
      if (!mine) {
        LOG.warning("decision run " + run.runId() + ": another node took it over (this node stalled past its lease)"
            + " and ended it; its end is not recorded here");
      }
      return (Void) null;
    }).onComplete(x -> inFlight.remove(run.runId()));
  }

  /**
   * This node claimed the lease of a decision run whose node stopped renewing it: ends it failed with the reason,
   * its {@code error} event after the events stored (published on {@code argus.run.<runId>}, so a client whose SSE
   * stream is held by a surviving node receives it), in the same lease-fenced transaction.
   */
  Future<Void> takeOver(Run run, int takeovers) {
    String reason = "the node deciding it died (lease expired; taken over by node " + ownership.nodeId()
        + "); the decision was not finished there and is not resumed: ask again";
    return store.lastEventId(run.runId()).compose(last -> {
      RunEvent error = new RunEvent(run.runId(), last + 1, RunEvent.ERROR, new JsonObject().put("runId", run.runId())
          .put("error", reason).put("code", "run_failed"), System.currentTimeMillis());
      Run failed = run.withProgress(RunStatus.FAILED, null, run.loopCount(), run.replans(), reason,
          System.currentTimeMillis());
      return store.endLeased(failed, List.of(error), ownership.nodeId(), takeovers).map(mine -> {
        if (mine) {
          LOG.warning("decision run " + run.runId() + " failed: " + reason);
          vertx.eventBus().publish(Addresses.runEvents(run.runId()), error.toJson());
        }
        return (Void) null;
      });
    });
  }
}
