package dev.argus.eval.score;

import io.vertx.core.json.JsonObject;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The scores of one run: metric → value (only the metrics that apply), and notes (why a metric is absent, the judge's
 * skips). The aggregate is the mean of the present metrics that are part of it ({@link Metric#inAggregate()}).
 */
public record Scorecard(Map<Metric, Double> values, JsonObject notes) {

  public Scorecard {
    EnumMap<Metric, Double> copy = new EnumMap<>(Metric.class);
    copy.putAll(values);
    values = Collections.unmodifiableMap(copy);
    notes = notes == null ? new JsonObject() : notes;
  }

  /** Builds a scorecard from the given metrics and adds their aggregate. */
  public static Scorecard withAggregate(Map<Metric, Double> metrics, JsonObject notes) {
    EnumMap<Metric, Double> all = new EnumMap<>(Metric.class);
    all.putAll(metrics);
    all.remove(Metric.AGGREGATE);
    double sum = 0;
    int n = 0;
    for (Map.Entry<Metric, Double> e : all.entrySet()) {
      if (e.getKey().inAggregate()) {
        sum += e.getValue();
        n++;
      }
    }
    if (n > 0) {
      all.put(Metric.AGGREGATE, sum / n);
    }
    return new Scorecard(all, notes);
  }

  public Double get(Metric m) {
    return values.get(m);
  }

  public JsonObject toJson() {
    JsonObject metrics = new JsonObject();
    values.forEach((k, v) -> metrics.put(k.wire(), round(v)));
    return new JsonObject().put("metrics", metrics).put("notes", notes);
  }

  public static Scorecard fromJson(JsonObject json) {
    EnumMap<Metric, Double> values = new EnumMap<>(Metric.class);
    JsonObject metrics = json.getJsonObject("metrics", new JsonObject());
    for (String k : metrics.fieldNames()) {
      Metric m = Metric.fromWire(k);
      if (m != null && metrics.getValue(k) instanceof Number n) {
        values.put(m, n.doubleValue());
      }
    }
    return new Scorecard(values, json.getJsonObject("notes", new JsonObject()));
  }

  static double round(double v) {
    return Math.round(v * 1_000_000) / 1_000_000.0;
  }
}
