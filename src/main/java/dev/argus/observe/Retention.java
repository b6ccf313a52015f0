package dev.argus.observe;

import dev.argus.bus.Addresses;
import dev.argus.config.ObserveConf;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.util.logging.Logger;

/**
 * Run retention: ended runs, their events and their traces older than {@code observe.runRetentionHours} are
 * deleted. The runs and events through {@link Addresses#RUNS_PURGE} (the agent owns the run store), the traces
 * here. Counts what it deleted in {@code argus.retention.purged{kind}}. One purge at a time.
 */
final class Retention {

  static final String PURGED = "argus.retention.purged";
  private static final Logger LOG = Logger.getLogger(Retention.class.getName());

  private final Vertx vertx;
  private final ObserveConf conf;
  private final TraceStore traces;
  private final MeterRegistry registry;
  private Future<JsonObject> running;
  private volatile JsonObject last;

  Retention(Vertx vertx, ObserveConf conf, TraceStore traces, MeterRegistry registry) {
    this.vertx = vertx;
    this.conf = conf;
    this.traces = traces;
    this.registry = registry;
  }

  /** The latest purge's result ({@code null} before the first). */
  JsonObject last() {
    return last;
  }

  /** Purges now; completes with {@code {beforeMs, runs, events, traces}}. */
  Future<JsonObject> purge() {
    if (running != null && !running.isComplete()) {
      return running;
    }
    long before = System.currentTimeMillis() - conf.runRetentionMs();
    running = vertx.eventBus().<JsonObject>request(Addresses.RUNS_PURGE, new JsonObject().put("beforeMs", before),
            new DeliveryOptions().setSendTimeout(120_000))
        .map(m -> m.body())
        .compose(runs -> traces.purge(before).map(t -> runs.copy().put("traces", t).put("beforeMs", before)))
        .onSuccess(r -> {
          last = r.copy().put("at", System.currentTimeMillis());
          registry.counter(PURGED, "kind", "runs").increment(r.getInteger("runs", 0));
          registry.counter(PURGED, "kind", "events").increment(r.getInteger("events", 0));
          registry.counter(PURGED, "kind", "traces").increment(r.getInteger("traces", 0));
          if (r.getInteger("runs", 0) > 0) {
            LOG.info("retention: purged " + r.getInteger("runs") + " run(s), " + r.getInteger("events")
                + " event(s) and " + r.getInteger("traces") + " trace(s) older than " + conf.runRetentionHours()
                + " h");
          }
        })
        .onFailure(err -> LOG.warning("retention: purging old runs failed: " + err.getMessage()));
    return running;
  }
}
