package dev.argus.backtest;

import dev.argus.backtest.Metrics.Counts;
import dev.argus.backtest.Verdict.Band;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The backtest's measures on eight hand-made verdicts; every expected value is worked out in the comments. */
class BacktestMetricsTest {

  static final double EPS = 1e-9;

  static Verdict v(boolean fraud, String pattern, String outcome, String status, List<String> signals,
                   List<String> rules) {
    LabelledSubject s = new LabelledSubject("S-" + pattern + outcome + signals + rules, LabelledSubject.ONBOARDING,
        fraud, pattern, null, null);
    return new Verdict(s, outcome, status, 50, 0.7, signals, rules, 10, null);
  }

  // #1 fraud synthetic REJECT; #2 fraud synthetic REVIEW; #3 fraud mule APPROVE; #4, #5, #8 honest APPROVE;
  // #6 honest trap REVIEW; #7 honest REJECT (pending review)
  static final List<Verdict> EIGHT = List.of(
      v(true, "synthetic_identity", "REJECT", "FINAL", List.of("shared_device"), List.of("watchlist_exact")),
      v(true, "synthetic_identity", "REVIEW", "PENDING_REVIEW", List.of("shared_device"), List.of()),
      v(true, "mule_network", "APPROVE", "FINAL", List.of(), List.of()),
      v(false, "none", "APPROVE", "FINAL", List.of("shared_device"), List.of()),
      v(false, "none", "APPROVE", "FINAL", List.of(), List.of()),
      v(false, "family_address", "REVIEW", "PENDING_REVIEW", List.of("shared_address"), List.of()),
      v(false, "none", "REJECT", "PENDING_REVIEW", List.of(), List.of("watchlist_exact")),
      v(false, "none", "APPROVE", "FINAL", List.of(), List.of()));

  @Test
  void flaggedCountsPrecisionRecallF1() {
    Counts c = Metrics.flagged(EIGHT);
    // TP = #1, #2; FP = #6, #7; FN = #3; TN = #4, #5, #8
    assertEquals(new Counts(2, 2, 1, 3), c);
    assertEquals(0.5, c.precision(), EPS); // 2 / (2 + 2)
    assertEquals(2.0 / 3, c.recall(), EPS); // 2 / (2 + 1)
    assertEquals(4.0 / 7, c.f1(), EPS); // 2 · 0.5 · 2/3 / (0.5 + 2/3) = (2/3) / (7/6) = 4/7
  }

  @Test
  void perOutcome() {
    Counts reject = Metrics.outcome(EIGHT, Band.STOP);
    // REJECT claims fraud: TP #1, FP #7, FN #2 #3 (fraud not rejected), TN the other four
    assertEquals(new Counts(1, 1, 2, 4), reject);
    assertEquals(0.4, reject.f1(), EPS); // p = 1/2, r = 1/3: 2 · 1/6 / (5/6) = 2/5
    Counts approve = Metrics.outcome(EIGHT, Band.PASS);
    // APPROVE claims honest: TP #4 #5 #8, FP #3, FN #6 #7 (honest not approved), TN #1 #2
    assertEquals(new Counts(3, 1, 2, 2), approve);
    assertEquals(0.75, approve.precision(), EPS);
    assertEquals(0.6, approve.recall(), EPS);
    assertEquals(2.0 / 3, approve.f1(), EPS); // 2 · 0.75 · 0.6 / 1.35 = 0.9 / 1.35
    Counts review = Metrics.outcome(EIGHT, Band.REVIEW);
    // REVIEW claims fraud: TP #2, FP #6, FN #1 #3
    assertEquals(new Counts(1, 1, 2, 4), review);
  }

  @Test
  void confusionMatrix() {
    Map<Boolean, Map<Band, Long>> m = Metrics.confusion(EIGHT);
    assertEquals(Map.of(Band.PASS, 1L, Band.REVIEW, 1L, Band.STOP, 1L), m.get(true));
    assertEquals(Map.of(Band.PASS, 3L, Band.REVIEW, 1L, Band.STOP, 1L), m.get(false));
  }

  @Test
  void perPattern() {
    Map<String, Metrics.PatternStats> p = Metrics.patterns(EIGHT);
    Metrics.PatternStats synth = p.get("synthetic_identity");
    assertEquals(2, synth.subjects());
    assertEquals(1.0, synth.recall(), EPS); // both flagged
    assertEquals(0.5, synth.precision(), EPS); // 2 / (2 + 2 honest flagged in the world)
    assertEquals(2.0 / 3, synth.f1(), EPS); // 2 · 0.5 · 1 / 1.5
    Metrics.PatternStats mule = p.get("mule_network");
    assertEquals(0.0, mule.recall(), EPS);
    assertEquals(0.0, mule.precision(), EPS); // 0 / (0 + 2)
    assertEquals(0.0, mule.f1(), EPS); // p + r = 0
    assertEquals(1.0, p.get("family_address").falsePositiveRate(), EPS); // its one subject was reviewed
    assertTrue(Double.isNaN(p.get("family_address").recall())); // an honest pattern has no recall
    assertEquals(0.25, p.get("none").falsePositiveRate(), EPS); // #7 of #4 #5 #7 #8
    assertEquals(4, p.get("none").subjects());
  }

  @Test
  void perSignalAndPerRule() {
    Map<String, Metrics.FeatureStats> signals = Metrics.features(EIGHT, Verdict::signals);
    Metrics.FeatureStats device = signals.get("shared_device");
    assertEquals(3, device.hits()); // #1 #2 #4
    assertEquals(0.375, device.hitRate(), EPS); // 3 / 8
    assertEquals(2.0 / 3, device.precision(), EPS); // #1 #2 fraud of 3 hits
    assertEquals(2.0 / 3, device.recall(), EPS); // 2 of 3 fraudulent subjects
    assertEquals(0.0, signals.get("shared_address").precision(), EPS);
    Metrics.FeatureStats watch = Metrics.features(EIGHT, Verdict::rules).get("watchlist_exact");
    assertEquals(2, watch.hits()); // #1 #7
    assertEquals(0.25, watch.hitRate(), EPS);
    assertEquals(0.5, watch.precision(), EPS);
    assertEquals(1.0 / 3, watch.recall(), EPS);
  }

  @Test
  void reviewRates() {
    // a person looks at #2, #6 (REVIEW) and #7 (REJECT pending review): 3 / 8
    assertEquals(0.375, Metrics.reviewRate(EIGHT), EPS);
    assertEquals(0.25, Metrics.reviewOutcomeRate(EIGHT), EPS); // #2, #6
  }

  @Test
  void percentilesAndThroughput() {
    double[] sample = {5, 1, 4, 2, 3};
    assertEquals(3, Metrics.percentile(sample, 50), EPS); // rank ceil(2.5) = 3 of 1..5
    assertEquals(5, Metrics.percentile(sample, 95), EPS); // rank ceil(4.75) = 5
    assertEquals(1, Metrics.percentile(sample, 20), EPS); // rank ceil(1.0) = 1
    assertTrue(Double.isNaN(Metrics.percentile(new double[0], 50)));
    assertThrows(IllegalArgumentException.class, () -> Metrics.percentile(sample, 0));
    assertEquals(25.0, Metrics.throughput(50, 2_000_000_000L), EPS); // 50 decisions in 2 s
  }

  @Test
  void undefinedRatiosAreNullInJson() {
    Counts none = new Counts(0, 0, 0, 5);
    assertTrue(Double.isNaN(none.precision()));
    JsonObject json = none.toJson();
    assertTrue(json.containsKey("precision") && json.getValue("precision") == null);
    assertEquals(0.6667, Metrics.json(2.0 / 3), EPS);
  }

  @Test
  void verdictReadsADecision() {
    LabelledSubject s = new LabelledSubject("S-1", LabelledSubject.ONBOARDING, true, "mule_network", "g", null);
    JsonObject decision = new JsonObject().put("outcome", "reject").put("status", "PENDING_REVIEW")
        .put("riskScore", 81.5).put("confidence", 0.9)
        .put("signals", new JsonArray()
            .add(new JsonObject().put("name", "shared_payout_account").put("contribution", 30))
            .add(new JsonObject().put("name", "account_age").put("contribution", 0))
            .add(new JsonObject().put("name", "clean_history").put("contribution", -5)))
        .put("firedRules", new JsonArray().add("watchlist_exact").add(new JsonObject().put("id", "amount_limit")));
    Verdict v = Verdict.of(s, decision, 12.5);
    assertEquals("REJECT", v.outcome());
    assertEquals(Band.STOP, v.band());
    assertEquals(List.of("shared_payout_account"), v.signals()); // only signals that raised the score
    assertEquals(List.of("watchlist_exact", "amount_limit"), v.rules());
    assertEquals(81.5, v.riskScore(), EPS);
    assertTrue(v.needsPerson());
    assertThrows(IllegalArgumentException.class, () -> Verdict.of(s, new JsonObject().put("outcome", "MAYBE"), 1));
    assertEquals("BLOCK", Band.STOP.outcomeIn(LabelledSubject.TRANSACTION));
    assertEquals(Band.PASS, Band.of("ALLOW"));
  }
}
