package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * Runs made elsewhere that the coordinator records: decisions ({@code argus.decide.*} runs from start to stored record
 * on one node). A single process stores a decision's run once it ended ({@link #finish}). In cluster mode a decision
 * is also a leased run while it runs: {@link #begin} takes its lease on this node and stores it {@code running} with
 * next phase {@value #DECISION_PHASE}; this node's renewals keep the lease; {@link #finish} stores the end fenced by
 * the lease ({@code RunStore#endLeased}). When the node dies mid-decision another node takes the lease over like a
 * chat run's and {@link #takeOver ends the run}: completed when that node had stored the decision, else failed with
 * the reason. A decision is not resumed half-way (its caller asks again; on the bus it may reuse the run id, and
 * the decision is then recorded once, V14_1).
 *
 * <p>Used from the coordinator verticle's context only.
 */
final class RecordedRuns {

  private static final Logger LOG = Logger.getLogger(RecordedRuns.class.getName());
  /** The next phase a running decision run is stored with: it marks a decision for the node that takes it over. */
  static final String DECISION_PHASE = "decision";
  /** The id of the terminal event a node writes for a decision run it took over. */
  static final long TAKEOVER_EVENT_ID = 1_000_000;
  static final long LOOKUP_TIMEOUT_MS = 10_000;

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
   * This node claimed the lease of a decision run whose node stopped renewing it. If that node had stored the
   * decision (it died between the decision's record and the run's), the run is ended completed with it; otherwise
   * failed with the reason. Its terminal event gets id {@value #TAKEOVER_EVENT_ID} (a decision numbers its events
   * from 1 and has a few dozen, none of them stored before its end: a client that read part of the stream from the
   * dead node then receives this one after its {@code Last-Event-ID}); it is written in the lease-fenced transaction,
   * then published on {@code argus.run.<runId>}, so a client whose SSE stream is held by a surviving node receives it.
   */
  Future<Void> takeOver(Run run, int takeovers) {
    String runId = run.runId();
    return vertx.eventBus().<JsonObject>request(Addresses.DECISIONS_GET, new JsonObject().put("runId", runId),
            new DeliveryOptions().setSendTimeout(LOOKUP_TIMEOUT_MS))
        .map(m -> Optional.of(m.body()))
        .recover(err -> BusFailures.toApi(err).status() == 404 ? Future.succeededFuture(Optional.<JsonObject>empty())
            : Future.failedFuture(err)) // the lease stays; the next scan claims the run again
        .compose(decision -> store.lastEventId(runId).compose(last -> {
          long now = System.currentTimeMillis();
          long id = Math.max(last + 1, TAKEOVER_EVENT_ID);
          String node = ownership.nodeId();
          RunEvent end;
          Run ended;
          if (decision.isPresent()) {
            JsonObject d = decision.get().copy();
            d.remove("trace");
            end = new RunEvent(runId, id, RunEvent.FINAL, new JsonObject().put("runId", runId)
                .put("decisionId", d.getString("decisionId")).put("outcome", d.getString("outcome"))
                .put("status", d.getString("status")).put("riskScore", d.getValue("riskScore"))
                .put("recoveredBy", node), now);
            ended = run.withProgress(RunStatus.COMPLETED, null, 0, 0, null, now)
                .withOutcome(new JsonArray(), new JsonObject(), d);
          } else {
            String reason = "the node deciding it died (lease expired; taken over by node " + node + ") before the"
                + " decision was stored; not resumed: ask again";
            end = new RunEvent(runId, id, RunEvent.ERROR, new JsonObject().put("runId", runId).put("error", reason)
                .put("code", "run_failed"), now);
            ended = run.withProgress(RunStatus.FAILED, null, 0, 0, reason, now);
          }
          return store.endLeased(ended, List.of(end), node, takeovers).map(mine -> {
            if (mine) {
              LOG.warning("decision run " + runId + " of a dead node ended " + ended.status().wire()
                  + (decision.isPresent() ? " (its decision was stored)" : ": " + ended.error()));
              vertx.eventBus().publish(Addresses.runEvents(runId), end.toJson());
            }
            return (Void) null;
          });
        }));
  }
}
