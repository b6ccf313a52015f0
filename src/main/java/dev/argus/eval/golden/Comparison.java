package dev.argus.eval.golden;

import dev.argus.eval.score.Metric;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A set result's metrics beside a baseline's: per metric the value, the baseline, the difference, and whether it
 * fell more than {@code threshold} (absolute, in metric units) below the baseline — for higher-is-better metrics;
 * for the concern count, rose more than it. The gate fails when any metric fell.
 */
public record Comparison(List<Row> rows, double threshold) {

  public record Row(String metric, Double value, Double baseline, Double delta, boolean fell) {
    JsonObject toJson() {
      return new JsonObject().put("metric", metric).put("value", value).put("baseline", baseline).put("delta", delta)
          .put("fell", fell);
    }
  }

  public static Comparison of(JsonObject metrics, JsonObject baseline, double threshold) {
    List<Row> rows = new ArrayList<>();
    TreeSet<String> names = new TreeSet<>(metrics.fieldNames());
    if (baseline != null) {
      names.addAll(baseline.fieldNames());
    }
    for (String name : names) {
      Double v = num(metrics.getValue(name));
      Double b = baseline == null ? null : num(baseline.getValue(name));
      Double delta = v != null && b != null ? v - b : null;
      Metric m = Metric.fromWire(name);
      boolean higherBetter = m == null ? !"failedCases".equals(name) : m.higherIsBetter();
      boolean fell = b != null && (v == null || (higherBetter ? b - v > threshold : v - b > threshold));
      rows.add(new Row(name, v, b, delta, fell));
    }
    return new Comparison(rows, threshold);
  }

  public boolean passed() {
    return rows.stream().noneMatch(Row::fell);
  }

  public JsonObject toJson() {
    JsonArray r = new JsonArray();
    rows.forEach(x -> r.add(x.toJson()));
    return new JsonObject().put("threshold", threshold).put("passed", passed()).put("rows", r);
  }

  /** The table printed by {@code argus eval-agent}. */
  public String table() {
    StringBuilder sb = new StringBuilder(String.format("%-26s %10s %10s %10s%n", "metric", "value", "baseline", "delta"));
    for (Row row : rows) {
      sb.append(String.format("%-26s %10s %10s %10s%s%n", row.metric(), fmt(row.value()), fmt(row.baseline()),
          row.delta() == null ? "-" : String.format("%+.4f", row.delta()), row.fell() ? "  FELL" : ""));
    }
    return sb.toString();
  }

  private static String fmt(Double d) {
    return d == null ? "-" : String.format("%.4f", d);
  }

  private static Double num(Object o) {
    return o instanceof Number n ? n.doubleValue() : null;
  }
}
