package dev.argus.eval.online;

import dev.argus.common.ApiException;
import dev.argus.config.EvalConf;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.HourlyPoint;
import dev.argus.eval.store.Regression;
import dev.argus.eval.store.ScoreRow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The read side of evaluation: one run's evaluation, history, trend, regressions, stats, set results. */
final class EvalQueries {

  static final int MAX_HISTORY = 10_000;

  private final EvalConf conf;
  private final EvalStore store;

  EvalQueries(EvalConf conf, EvalStore store) {
    this.conf = conf;
    this.store = store;
  }

  Future<JsonObject> run(JsonObject req) {
    String id = req.getString("runId", "");
    return store.find(id).compose(e -> e.map(x -> Future.succeededFuture(x.toJson()))
        .orElseGet(() -> Future.failedFuture(ApiException.notFound("not_evaluated", "no evaluation of run '" + id + "'"))));
  }

  /** {@code {metric?, profile?, from, to, limit}}: the raw scores and the hourly aggregates of the range. */
  Future<JsonObject> history(JsonObject req) {
    String metric = req.getString("metric");
    String profile = req.getString("profile");
    long from = req.getLong("from", 0L);
    long to = req.getLong("to", Long.MAX_VALUE);
    int limit = Math.min(req.getInteger("limit", 1000), MAX_HISTORY);
    Future<java.util.List<ScoreRow>> scores = store.scores(profile, metric, from, to, limit);
    Future<java.util.List<HourlyPoint>> hourly = store.hourly(profile, metric, HourlyPoint.hourOf(from), to);
    return Future.all(scores, hourly).map(x -> {
      JsonArray s = new JsonArray();
      scores.result().forEach(r -> s.add(r.toJson()));
      JsonArray h = new JsonArray();
      hourly.result().forEach(p -> h.add(p.toJson()));
      return new JsonObject().put("metric", metric).put("profile", profile).put("from", from)
          .put("to", to == Long.MAX_VALUE ? null : to).put("scores", s).put("truncated", s.size() >= limit)
          .put("hourly", h);
    });
  }

  /** The last {@code hours} (default {@code trendHours}) hourly points, one series per profile and metric. */
  Future<JsonObject> trend(JsonObject req, long nowMs) {
    int hours = Math.min(req.getInteger("hours", conf.trendHours()), 24 * 365);
    long to = HourlyPoint.hourOf(nowMs) + HourlyPoint.HOUR_MS;
    long from = to - hours * HourlyPoint.HOUR_MS;
    return store.hourly(req.getString("profile"), req.getString("metric"), from, to).map(points -> {
      Map<String, JsonObject> series = new LinkedHashMap<>();
      for (HourlyPoint p : points) {
        series.computeIfAbsent(p.profile() + "\u0000" + p.metric(), k -> new JsonObject().put("profile", p.profile())
                .put("metric", p.metric()).put("points", new JsonArray()))
            .getJsonArray("points").add(p.toJson());
      }
      return new JsonObject().put("from", Instant.ofEpochMilli(from).toString())
          .put("to", Instant.ofEpochMilli(to).toString()).put("hours", hours)
          .put("series", new JsonArray(new java.util.ArrayList<>(series.values())));
    });
  }

  Future<JsonObject> regressions(JsonObject req) {
    return store.regressions(req.getString("profile"), req.getLong("from", 0L), req.getLong("to", Long.MAX_VALUE),
        Math.min(req.getInteger("limit", 100), 1000)).map(list -> {
          JsonArray a = new JsonArray();
          for (Regression r : list) {
            a.add(r.toJson());
          }
          return new JsonObject().put("regressions", a);
        });
  }

  Future<JsonObject> stats() {
    return store.stats().map(s -> s.put("config", new JsonObject().put("enabled", conf.enabled())
        .put("judge", conf.judge()).put("regressionThreshold", conf.regressionThreshold())
        .put("baselineHours", conf.baselineHours()).put("trendHours", conf.trendHours())));
  }

  Future<JsonObject> setResults(JsonObject req) {
    String resultId = req.getString("resultId");
    if (resultId != null) {
      return store.findSetResult(resultId).compose(r -> r.map(Future::succeededFuture).orElseGet(() ->
          Future.failedFuture(ApiException.notFound("unknown_result", "no set result '" + resultId + "'"))));
    }
    return store.setResults(req.getString("name", ""), Math.min(req.getInteger("limit", 20), 200))
        .map(l -> new JsonObject().put("results", new JsonArray(new java.util.ArrayList<>(l))));
  }
}
