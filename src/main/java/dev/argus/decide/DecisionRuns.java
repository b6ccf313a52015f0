package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.decide.phases.DecisionContext;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunInput;
import dev.argus.runs.RunStatus;
import dev.argus.bus.BusFailures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.logging.Logger;

/**
 * Records a finished decision run in the run store through the agent's coordinator ({@code argus.agent.run.record}):
 * the run (profile, subject, status, the decision's summary as its result, timings) and every event it published, so
 * {@code GET /api/runs/{runId}/events} replays a decision's stream after {@code Last-Event-ID} like a chat run's. Sent
 * after the decision is answered, never delaying it; without a coordinator the record is skipped (logged).
 */
final class DecisionRuns {

  private static final Logger LOG = Logger.getLogger(DecisionRuns.class.getName());
  static final long TIMEOUT_MS = 10_000;

  private final Vertx vertx;

  DecisionRuns(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * The decision starts (after its subject is resolved): the coordinator of this node takes the run's lease in
   * cluster mode and stores it running (next phase {@code decision}), so another node fails it with a reason if this
   * one dies; fails 409 {@code duplicate_run} when the run id is already leased. Without a coordinator, or in a
   * single process, nothing is stored before the end.
   */
  Future<Void> begin(DecisionContext ctx) {
    Run running = start(ctx).withProgress(RunStatus.RUNNING, "decision", 0, 0, null, System.currentTimeMillis());
    return vertx.eventBus().request(Addresses.AGENT_RUN_BEGIN, new JsonObject().put("run", running.toJson()),
            new DeliveryOptions().setSendTimeout(TIMEOUT_MS))
        .<Void>mapEmpty()
        .recover(err -> err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
            ? Future.succeededFuture() : Future.failedFuture(BusFailures.toApi(err)));
  }

  private static Run start(DecisionContext ctx) {
    return Run.start(ctx.runId, ctx.profile.wire(), new RunInput("decision " + ctx.profile.wire() + " "
        + ctx.subjectId, null, null, null), ctx.createdAtMs);
  }

  void record(DecisionContext ctx, JsonObject decision, Throwable failure) {
    long now = System.currentTimeMillis();
    Run run = start(ctx)
        .withProgress(failure == null ? RunStatus.COMPLETED : RunStatus.FAILED, null, 0, ctx.replans,
            failure == null ? null : String.valueOf(failure.getMessage()), now)
        .withOutcome(new JsonArray(), new JsonObject(), decision == null ? new JsonObject()
            : DecisionRecord.summary(decision));
    JsonArray events = new JsonArray();
    for (RunEvent e : ctx.events.recorded()) {
      events.add(e.toJson());
    }
    vertx.eventBus().request(Addresses.AGENT_RUN_RECORD, new JsonObject().put("run", run.toJson())
            .put("events", events), new DeliveryOptions().setSendTimeout(TIMEOUT_MS))
        .onFailure(err -> LOG.fine("decision run " + ctx.runId + " not recorded: " + err.getMessage()));
  }
}
