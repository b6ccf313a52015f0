package dev.argus.agent;

import dev.argus.agent.phases.PhaseEvent;
import dev.argus.bus.Addresses;
import dev.argus.config.AgentConf;
import dev.argus.bus.BusFailures;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import java.util.List;

import java.util.logging.Logger;

/**
 * Serves the {@link RunCoordinator} on the bus: start, get, list (newest runs), events (replay) and the phases' event reports; drops
 * cached answers when knowledge changes; purges expired session turns; on start resumes the runs a previous process
 * left running.
 */
public final class CoordinatorVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(CoordinatorVerticle.class.getName());

  private final java.util.function.Function<io.vertx.core.Vertx, RunCoordinator> factory;
  private RunCoordinator coordinator;
  private final AgentConf conf;
  private long purgeTimer = -1;
  static final long PURGE_EVERY_MS = 600_000;

  public CoordinatorVerticle(AgentConf conf, java.util.function.Function<io.vertx.core.Vertx, RunCoordinator> factory) {
    this.conf = conf;
    this.factory = factory;
  }

  @Override
  public Future<?> start() {
    coordinator = factory.apply(vertx);
    EventBus eb = vertx.eventBus();
    var start = eb.<JsonObject>consumer(Addresses.AGENT_RUN_START, msg -> {
      StartRun req;
      try {
        req = StartRun.fromJson(msg.body());
      } catch (RuntimeException e) {
        BusFailures.fail(msg, dev.argus.common.ApiException.badRequest("invalid_request", "invalid start request"));
        return;
      }
      coordinator.start(req).onSuccess(id -> msg.reply(new JsonObject().put("runId", id)))
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    // reads are served by this node's coordinator (local consumers): its own live runs from memory, every other run
    // from the shared store, where each event is written before it is published. So a client on any node reads any
    // run without a hop to the node that drives it, and a dead node's runs stay readable.
    var get = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_GET, msg -> coordinator.queries().get(msg.body().getString("runId"))
        .onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err)));
    var list = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_LIST, msg -> coordinator.queries()
        .recent(msg.body() == null ? new JsonObject() : msg.body())
        .onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err)));
    var events = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_EVENTS, msg -> coordinator.queries()
        .events(msg.body().getString("runId"), msg.body().getLong("afterId", 0L), msg.body().getInteger("limit", 0))
        .onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err)));
    // local: a finished decision's run is recorded by the node that made it, in the shared store
    var record = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_RECORD, msg -> {
      Run run;
      List<RunEvent> recorded = new java.util.ArrayList<>();
      try {
        run = Run.fromJson(msg.body().getJsonObject("run"));
        msg.body().getJsonArray("events", new io.vertx.core.json.JsonArray())
            .forEach(o -> recorded.add(RunEvent.fromJson((JsonObject) o)));
      } catch (RuntimeException e) {
        BusFailures.fail(msg, dev.argus.common.ApiException.badRequest("invalid_request", "invalid run record"));
        return;
      }
      coordinator.recorded().finish(run, recorded).onSuccess(v -> msg.reply(new JsonObject()))
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    // local: a decision starting on this node (cluster mode: its lease, and its run stored running)
    var begin = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_BEGIN, msg -> {
      Run run;
      try {
        run = Run.fromJson(msg.body().getJsonObject("run"));
      } catch (RuntimeException e) {
        BusFailures.fail(msg, dev.argus.common.ApiException.badRequest("invalid_request", "invalid run record"));
        return;
      }
      coordinator.recorded().begin(run).onSuccess(v -> msg.reply(new JsonObject()))
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    // local: the phases that report are this node's (see PhaseVerticle), and so is the run they report for
    var emit = eb.<JsonObject>localConsumer(Addresses.AGENT_RUN_EMIT,
        msg -> coordinator.phaseEvent(PhaseEvent.fromJson(msg.body())));
    var changed = eb.<JsonObject>consumer(Addresses.KNOWLEDGE_CHANGED,
        msg -> coordinator.cache().invalidate(msg.body() == null ? null : msg.body().getString("namespace")));
    var purgeRuns = eb.<JsonObject>consumer(Addresses.RUNS_PURGE, msg -> {
      Long before = msg.body() == null ? null : msg.body().getLong("beforeMs");
      if (before == null || before < 0) {
        BusFailures.fail(msg, dev.argus.common.ApiException.badRequest("invalid_request", "beforeMs is required"));
        return;
      }
      coordinator.purgeRuns(before).onSuccess(p -> msg.reply(p.toJson())).onFailure(err -> BusFailures.fail(msg, err));
    });
    // session turns past their TTL are purged now and then (at most every ten minutes)
    purgeTimer = vertx.setPeriodic(Math.min(PURGE_EVERY_MS, conf.sessionTtlMs()), id -> coordinator.purgeSessions()
        .onFailure(err -> LOG.warning("purging expired session turns failed: " + err.getMessage())));
    return Future.all(List.of(start.completion(), get.completion(), list.completion(), events.completion(), emit.completion(),
            changed.completion(), purgeRuns.completion(), record.completion(), begin.completion()))
        .compose(v -> coordinator.resumeAll())
        .onSuccess(n -> {
          if (n > 0) {
            LOG.info("resumed or closed " + n + " run(s) left running by the previous process");
          }
        });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(purgeTimer);
    if (coordinator != null) {
      coordinator.stopOwnership();
    }
    return coordinator == null ? Future.succeededFuture() : coordinator.flushAll();
  }
}
