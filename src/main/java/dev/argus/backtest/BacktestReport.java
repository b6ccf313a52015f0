package dev.argus.backtest;

import dev.argus.backtest.Verdict.Band;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a backtest's verdicts into its report: per profile and overall, precision/recall/F1 of flagging fraud and per
 * outcome, the confusion matrix, per planted pattern, per signal and per policy rule, review rates, latency
 * percentiles; per profile the thresholds proposed from costs with the trade-off curve and the cost of the outcomes as
 * decided; the targets with their values; the first failures. Decisions that failed are counted, never scored.
 */
public final class BacktestReport {

  /** Patterns no approval may ever reach (the hard target). */
  public static final Set<String> NEVER_APPROVE = Set.of("synthetic_identity", "mule_network");
  static final int MISSES_SHOWN = 50;
  static final int FAILURES_SHOWN = 20;

  private BacktestReport() {
  }

  public static JsonObject build(List<Verdict> verdicts, CostModel costs, long decideNanos) {
    List<Verdict> decided = verdicts.stream().filter(v -> !v.failed()).toList();
    List<Verdict> failed = verdicts.stream().filter(Verdict::failed).toList();
    Map<String, List<Verdict>> byProfile = new LinkedHashMap<>();
    decided.forEach(v -> byProfile.computeIfAbsent(v.subject().profile(), k -> new ArrayList<>()).add(v));
    JsonObject profiles = new JsonObject();
    byProfile.forEach((profile, vs) -> profiles.put(profile, section(vs, profile, costs)));
    String single = byProfile.size() == 1 ? byProfile.keySet().iterator().next() : null;
    JsonObject overall = section(decided, single, null);
    double perSecond = Metrics.throughput(verdicts.size(), decideNanos);
    JsonArray failures = new JsonArray();
    failed.stream().limit(FAILURES_SHOWN).forEach(v -> failures.add(new JsonObject()
        .put("subjectId", v.subject().id()).put("profile", v.subject().profile()).put("error", v.error())));
    return new JsonObject().put("subjects", verdicts.size()).put("decided", decided.size())
        .put("failed", failed.size()).put("failures", failures)
        .put("decideSeconds", Math.round(decideNanos / 1e7) / 100.0)
        .put("decisionsPerSecond", Metrics.json(perSecond))
        .put("overall", overall).put("profiles", profiles)
        .put("targets", targets(decided, failed.size(), perSecond));
  }

  static JsonObject section(List<Verdict> vs, String profile, CostModel costs) {
    JsonObject outcomes = new JsonObject();
    for (Band b : Band.values()) {
      outcomes.put(b.outcomeIn(profile), Metrics.outcome(vs, b).toJson());
    }
    JsonObject confusion = new JsonObject();
    Metrics.confusion(vs).forEach((fraud, row) -> {
      JsonObject r = new JsonObject();
      row.forEach((b, n) -> r.put(b.outcomeIn(profile), n));
      confusion.put(fraud ? "fraud" : "honest", r);
    });
    JsonArray patterns = new JsonArray();
    Metrics.patterns(vs).values().forEach(p -> patterns.add(p.toJson(profile)));
    JsonArray signals = new JsonArray();
    Metrics.features(vs, Verdict::signals).values().forEach(f -> signals.add(f.toJson()));
    JsonArray rules = new JsonArray();
    Metrics.features(vs, Verdict::rules).values().forEach(f -> rules.add(f.toJson()));
    double[] latency = vs.stream().mapToDouble(Verdict::latencyMs).toArray();
    JsonObject lat = new JsonObject().put("p50", Metrics.json(Metrics.percentile(latency, 50)))
        .put("p95", Metrics.json(Metrics.percentile(latency, 95)))
        .put("p99", Metrics.json(Metrics.percentile(latency, 99)))
        .put("max", Metrics.json(Metrics.percentile(latency, 100)));
    JsonArray fraudPassed = new JsonArray();
    JsonArray honestStopped = new JsonArray();
    for (Verdict v : vs) {
      if (v.subject().fraud() && v.band() == Band.PASS && fraudPassed.size() < MISSES_SHOWN) {
        fraudPassed.add(miss(v));
      } else if (!v.subject().fraud() && v.band() == Band.STOP && honestStopped.size() < MISSES_SHOWN) {
        honestStopped.add(miss(v));
      }
    }
    JsonObject statuses = new JsonObject();
    vs.forEach(v -> statuses.put(String.valueOf(v.status()), statuses.getLong(String.valueOf(v.status()), 0L) + 1));
    JsonObject out = new JsonObject().put("decisions", vs.size()).put("statuses", statuses)
        .put("fraudSubjects", vs.stream().filter(v -> v.subject().fraud()).count())
        .put("flagged", Metrics.flagged(vs).toJson()).put("outcomes", outcomes).put("confusion", confusion)
        .put("reviewRate", Metrics.json(Metrics.reviewRate(vs)))
        .put("reviewOutcomeRate", Metrics.json(Metrics.reviewOutcomeRate(vs)))
        .put("latencyMs", lat).put("patterns", patterns).put("signals", signals).put("rules", rules)
        .put("misses", new JsonObject().put("fraudPassed", fraudPassed).put("honestStopped", honestStopped));
    if (costs != null) {
      Map<Boolean, Map<Band, Long>> m = Metrics.confusion(vs);
      long reviewed = m.get(true).get(Band.REVIEW) + m.get(false).get(Band.REVIEW);
      double asDecided = costs.cost(m.get(true).get(Band.PASS), m.get(false).get(Band.STOP), reviewed);
      List<ThresholdOptimizer.Scored> scored = vs.stream()
          .map(v -> new ThresholdOptimizer.Scored(v.riskScore(), v.subject().fraud())).toList();
      out.put("costAsDecided", Math.round(asDecided * 100) / 100.0)
          .put("thresholds", ThresholdOptimizer.propose(scored, costs).toJson());
    }
    return out;
  }

  private static JsonObject miss(Verdict v) {
    return new JsonObject().put("subjectId", v.subject().id()).put("pattern", v.subject().pattern())
        .put("outcome", v.outcome()).put("riskScore", v.riskScore()).put("signals", new JsonArray(v.signals()));
  }

  /** The targets, each with its measured value and whether it is met. */
  static JsonArray targets(List<Verdict> decided, long failed, double perSecond) {
    Metrics.Counts flagged = Metrics.flagged(decided);
    long neverApproveApproved = decided.stream().filter(v -> NEVER_APPROVE.contains(v.subject().pattern())
        && v.band() == Band.PASS).count();
    double p95 = Metrics.percentile(decided.stream().mapToDouble(Verdict::latencyMs).toArray(), 95);
    double review = Metrics.reviewRate(decided);
    JsonArray t = new JsonArray();
    t.add(target("recall on planted fraud", flagged.recall(), "≥ 0.95", flagged.recall() >= 0.95));
    t.add(target("precision", flagged.precision(), "≥ 0.85", flagged.precision() >= 0.85));
    t.add(target("synthetic-identity or mule subjects approved", neverApproveApproved, "0",
        neverApproveApproved == 0));
    t.add(target("review rate", review, "≤ 0.20", review <= 0.20));
    t.add(target("decision latency p95 (ms)", p95, "≤ 200", p95 <= 200));
    t.add(target("decisions per second", perSecond, "≥ 25", perSecond >= 25));
    t.add(target("failed decisions", failed, "0", failed == 0));
    return t;
  }

  private static JsonObject target(String name, double value, String goal, boolean met) {
    return new JsonObject().put("name", name).put("value", Metrics.json(value)).put("target", goal)
        .put("met", !Double.isNaN(value) && met);
  }
}
