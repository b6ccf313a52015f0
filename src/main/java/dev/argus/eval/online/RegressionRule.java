package dev.argus.eval.online;

import dev.argus.eval.score.Metric;
import dev.argus.eval.store.HourlyPoint;
import dev.argus.eval.store.Regression;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The regression rule, a pure function: for one profile and metric, the mean of hour {@code H} is held against the
 * mean of the hourly means of the trailing {@code baselineHours} hours {@code [H - baselineHours, H)} (hours without
 * evaluations do not count). A regression when there are at least {@code minBaselineHours} such hours, the baseline is
 * positive and {@code 1 - mean(H) / baseline > threshold}. Only higher-is-better metrics are checked.
 */
public record RegressionRule(double threshold, int baselineHours, int minBaselineHours) {

  /** {@code history}: the hourly points of one profile and metric (any order, any span). */
  public Optional<Regression> check(String profile, String metric, long hourStartMs, List<HourlyPoint> history,
                                    long nowMs) {
    Metric m = Metric.fromWire(metric);
    if (m == null || !m.higherIsBetter()) {
      return Optional.empty();
    }
    long from = hourStartMs - baselineHours * HourlyPoint.HOUR_MS;
    Double last = null;
    double sum = 0;
    int hours = 0;
    for (HourlyPoint p : history) {
      if (!p.profile().equals(profile) || !p.metric().equals(metric)) {
        continue;
      }
      if (p.hourStartMs() == hourStartMs) {
        last = p.mean();
      } else if (p.hourStartMs() >= from && p.hourStartMs() < hourStartMs) {
        sum += p.mean();
        hours++;
      }
    }
    if (last == null || hours < minBaselineHours) {
      return Optional.empty();
    }
    double baseline = sum / hours;
    if (baseline <= 0) {
      return Optional.empty();
    }
    double drop = 1 - last / baseline;
    if (drop <= threshold) {
      return Optional.empty();
    }
    return Optional.of(new Regression(UUID.randomUUID().toString(), profile, metric, hourStartMs, last, baseline,
        drop, threshold, nowMs));
  }
}
