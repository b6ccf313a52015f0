package dev.argus.eval.online;

import dev.argus.bus.Addresses;
import dev.argus.config.EvalConf;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.HourlyPoint;
import dev.argus.eval.store.Regression;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The periodic task: recomputes the hourly aggregates of the last {@code recomputeHours} hours from the stored scores
 * (upserted, so running it twice changes nothing), then holds the last complete hour of every profile and metric
 * against its trailing baseline ({@link RegressionRule}). A new regression is stored once (one per profile, metric
 * and hour), published on {@code argus.eval.regression}, counted ({@code argus_eval_regressions_total}) and logged.
 */
public final class Aggregator {

  private static final Logger LOG = Logger.getLogger(Aggregator.class.getName());

  private final Vertx vertx;
  private final EvalConf conf;
  private final EvalStore store;
  private final RegressionRule rule;
  private final Counter regressionsCounter;
  private long lastRunMs = -1;

  public Aggregator(Vertx vertx, EvalConf conf, EvalStore store, Counter regressionsCounter) {
    this.vertx = vertx;
    this.conf = conf;
    this.store = store;
    this.rule = new RegressionRule(conf.regressionThreshold(), conf.baselineHours(), conf.minBaselineHours());
    this.regressionsCounter = regressionsCounter;
  }

  /** One pass as of {@code nowMs}; completes with {@code {hours, points, regressions}}. */
  public Future<JsonObject> run(long nowMs) {
    long currentHour = HourlyPoint.hourOf(nowMs);
    long from = currentHour - (conf.recomputeHours() - 1L) * HourlyPoint.HOUR_MS;
    long lastComplete = currentHour - HourlyPoint.HOUR_MS;
    long fromRecompute = Math.min(from, lastComplete);
    return store.computeHourly(fromRecompute, currentHour + HourlyPoint.HOUR_MS)
        .compose(points -> store.upsertHourly(points).map(points.size()))
        .compose(n -> store.hourly(null, null, lastComplete - conf.baselineHours() * HourlyPoint.HOUR_MS,
                lastComplete + HourlyPoint.HOUR_MS)
            .compose(history -> checkAll(lastComplete, history, nowMs))
            .map(found -> {
              lastRunMs = nowMs;
              JsonArray regs = new JsonArray();
              found.forEach(r -> regs.add(r.toJson()));
              return new JsonObject().put("hours", (int) ((currentHour - fromRecompute) / HourlyPoint.HOUR_MS) + 1)
                  .put("points", n).put("regressions", regs);
            }));
  }

  private Future<List<Regression>> checkAll(long hour, List<HourlyPoint> history, long nowMs) {
    Map<String, HourlyPoint> inHour = new LinkedHashMap<>();
    for (HourlyPoint p : history) {
      if (p.hourStartMs() == hour) {
        inHour.put(p.profile() + "\u0000" + p.metric(), p);
      }
    }
    List<Regression> found = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (HourlyPoint p : inHour.values()) {
      var maybe = rule.check(p.profile(), p.metric(), hour, history, nowMs);
      if (maybe.isEmpty()) {
        continue;
      }
      Regression r = maybe.get();
      chain = chain.compose(v -> store.saveRegression(r).map(isNew -> {
        if (isNew) {
          found.add(r);
          regressionsCounter.increment();
          LOG.warning(String.format("evaluation regression: profile %s metric %s hour %s mean %.4f is %.1f%% below "
                  + "the trailing mean %.4f (threshold %.1f%%)", r.profile(), r.metric(), r.toJson().getString("hour"),
              r.lastValue(), r.dropRatio() * 100, r.baseline(), r.threshold() * 100));
          vertx.eventBus().publish(Addresses.EVAL_REGRESSION, r.toJson());
        }
        return null;
      }));
    }
    return chain.map(found);
  }

  public long lastRunMs() {
    return lastRunMs;
  }
}
