package dev.argus.observe;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.ObserveConf;
import dev.argus.metrics.ArgusMeters;
import dev.argus.runs.RunEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Observability on the bus: taps the run events every run publishes on {@code argus.run.<runId>} (an outbound
 * interceptor: the agent needs no knowledge of it) into {@link RunMeters} and the run traces; listens to the
 * decision, review, evaluation, calibration and bridge events ({@link OutcomeMeters}); serves
 * {@link Addresses#OBSERVE_TRACE_GET}; and runs the retention task ({@link Retention}) every
 * {@code observe.purgeIntervalMs}.
 */
public final class ObserveVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(ObserveVerticle.class.getName());
  private static final String RUN_PREFIX = Addresses.runEvents("");

  private final ObserveConf conf;
  private final TraceStore traces;
  private final Tracing tracing;
  private RunObserver observer;
  private OutcomeMeters outcomes;
  private Retention retention;
  private Handler<DeliveryContext<Object>> tap;
  private long retentionTimer = -1;

  public ObserveVerticle(ObserveConf conf, TraceStore traces, Tracing tracing) {
    this.conf = conf;
    this.traces = traces;
    this.tracing = tracing;
  }

  @Override
  public Future<?> start() {
    MeterRegistry registry = ArgusMeters.registry(vertx);
    RunMeters runMeters = new RunMeters(registry);
    observer = new RunObserver(runMeters, conf.traces() ? tracing : null, conf.maxSpansPerRun());
    outcomes = new OutcomeMeters(registry, System::currentTimeMillis);
    retention = new Retention(vertx, conf, traces, registry);
    Context here = context;
    tap = delivery -> {
      try {
        if (!delivery.send() && delivery.message().address().startsWith(RUN_PREFIX)
            && delivery.body() instanceof JsonObject event) {
          here.runOnContext(v -> onRunEvent(event));
        }
      } finally {
        delivery.next();
      }
    };
    EventBus eb = vertx.eventBus();
    eb.addOutboundInterceptor(tap);
    // the published outcomes are counted on the node where they happened (local consumers: in cluster mode every
    // node would count every one); a cluster's total is the sum over its nodes' /metrics
    List<MessageConsumer<JsonObject>> consumers = List.of(
        eb.localConsumer(Addresses.DECISIONS_CREATED, m -> outcomes.decisionCreated(m.body())),
        eb.localConsumer(Addresses.REVIEWS_COMPLETED, m -> outcomes.reviewCompleted(m.body())),
        eb.localConsumer(Addresses.EVAL_SCORED, m -> outcomes.evalScored(m.body())),
        eb.localConsumer(Addresses.CALIBRATION_UPDATED, m -> outcomes.calibrationUpdated(m.body())),
        eb.localConsumer(Addresses.BRIDGE_CONNECTIONS, m -> outcomes.bridgeConnections(m.body())),
        eb.consumer(Addresses.OBSERVE_TRACE_GET, m -> trace(m.body())
            .onSuccess(m::reply).onFailure(err -> BusFailures.fail(m, err))),
        eb.consumer(Addresses.OBSERVE_HEALTH, m -> m.reply(runMeters.health()
            .put("breakers", Breakers.states(registry)).put("tracing", new JsonObject()
                .put("enabled", conf.traces()).put("otlpExport", tracing != null && tracing.exporting()))
            .put("retention", new JsonObject().put("runRetentionHours", conf.runRetentionHours())
                .put("lastPurge", retention.last())))));
    if (conf.runRetentionHours() > 0) {
      retentionTimer = vertx.setPeriodic(conf.purgeIntervalMs(), id -> retention.purge());
    }
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList())
        .onSuccess(v -> seedReviewQueue());
  }

  private void onRunEvent(JsonObject json) {
    RunEvent event;
    try {
      event = RunEvent.fromJson(json);
    } catch (RuntimeException e) {
      return;
    }
    observer.onEvent(event).ifPresent(trace -> traces.save(trace).onFailure(err ->
        LOG.log(Level.WARNING, "storing the trace of run " + trace.runId() + " failed", err)));
  }

  private Future<JsonObject> trace(JsonObject body) {
    String runId = body == null ? null : body.getString("runId");
    if (runId == null || runId.isBlank() || runId.length() > 100) {
      return Future.failedFuture(ApiException.badRequest("invalid_run_id", "invalid run id"));
    }
    return traces.find(runId).compose(t -> t.isPresent() ? Future.succeededFuture(t.get().toJson())
        : Future.failedFuture(ApiException.notFound("not_found", "no trace for run '" + runId + "'")));
  }

  /**
   * The decisions waiting for review when this process starts, from {@code argus.decisions.list} (when the decide
   * capability answers), so that the queue gauges do not start at zero; best effort.
   */
  private void seedReviewQueue() {
    vertx.eventBus().<JsonObject>request("argus.decisions.list", new JsonObject().put("status", "PENDING_REVIEW")
            .put("limit", 1000), new DeliveryOptions().setSendTimeout(5_000))
        .onSuccess(m -> {
          Object list = m.body() == null ? null : m.body().getValue("decisions");
          if (list == null && m.body() != null) {
            list = m.body().getValue("items");
          }
          if (list instanceof JsonArray a) {
            a.forEach(d -> {
              if (d instanceof JsonObject o) {
                outcomes.decisionCreated(o.copy().put("status", "PENDING_REVIEW"));
              }
            });
          }
        });
  }

  /** The retention task (tests run it at once instead of waiting for the period). */
  public Future<JsonObject> purgeNow() {
    return retention.purge();
  }

  @Override
  public Future<?> stop() {
    vertx.eventBus().removeOutboundInterceptor(tap);
    vertx.cancelTimer(retentionTimer);
    return Future.succeededFuture();
  }
}
