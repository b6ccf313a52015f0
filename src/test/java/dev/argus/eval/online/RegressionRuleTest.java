package dev.argus.eval.online;

import dev.argus.eval.store.HourlyPoint;
import dev.argus.eval.store.Regression;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The regression rule on constructed hourly histories, by hand. */
class RegressionRuleTest {

  private static final long H = HourlyPoint.HOUR_MS;

  private static HourlyPoint p(String metric, long hour, double mean) {
    return new HourlyPoint("assistant", metric, hour * H, 1, mean, mean, mean);
  }

  @Test
  void theBaselineIsTheMeanOfHourlyMeansInTheTrailingWindow() {
    RegressionRule rule = new RegressionRule(0.15, 4, 2);
    List<HourlyPoint> h = new ArrayList<>();
    // hour 95 is outside the 4-hour window [96, 100) and must not count; baseline = (0.9 + 0.7 + 0.8) / 3 = 0.8
    h.add(p("groundedness", 95, 0.1));
    h.add(p("groundedness", 96, 0.9));
    h.add(p("groundedness", 98, 0.7));
    h.add(p("groundedness", 99, 0.8));
    h.add(p("groundedness", 100, 0.67));
    h.add(p("coherence", 100, 0.0)); // another metric, no history of its own
    Regression r = rule.check("assistant", "groundedness", 100 * H, h, 1).orElseThrow();
    assertEquals(0.8, r.baseline(), 1e-9);
    // 1 - 0.67 / 0.8 = 0.1625 > 0.15
    assertEquals(0.1625, r.dropRatio(), 1e-9);
    // at 0.69: 1 - 0.69 / 0.8 = 0.1375 ≤ 0.15 → none
    h.set(4, p("groundedness", 100, 0.69));
    assertTrue(rule.check("assistant", "groundedness", 100 * H, h, 1).isEmpty());
    assertTrue(rule.check("assistant", "coherence", 100 * H, h, 1).isEmpty());
    // another profile's history is not this one's
    assertTrue(rule.check("analyst", "groundedness", 100 * H, h, 1).isEmpty());
  }

  @Test
  void aCountWhereLowerIsBetterIsNeverARegression() {
    RegressionRule rule = new RegressionRule(0.15, 4, 1);
    List<HourlyPoint> h = List.of(p("reflectionConcerns", 98, 3), p("reflectionConcerns", 99, 3),
        p("reflectionConcerns", 100, 0));
    assertTrue(rule.check("assistant", "reflectionConcerns", 100 * H, h, 1).isEmpty());
  }
}
