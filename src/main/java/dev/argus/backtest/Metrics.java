package dev.argus.backtest;

import dev.argus.backtest.Verdict.Band;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The backtest's measures as plain functions over decided {@link Verdict}s (failed decisions are left out by the
 * callers and counted apart). "Flagged" means not let through (REVIEW or STOP); a fraudulent subject flagged is a true
 * positive. A ratio with a zero denominator is undefined: NaN here, {@code null} in JSON.
 */
public final class Metrics {

  private Metrics() {
  }

  /** Counts of a binary decision against the truth, with precision, recall and F1. */
  public record Counts(long tp, long fp, long fn, long tn) {

    public double precision() {
      return ratio(tp, tp + fp);
    }

    public double recall() {
      return ratio(tp, tp + fn);
    }

    /** Harmonic mean of precision and recall (NaN when either is undefined, 0 when both are 0). */
    public double f1() {
      double p = precision();
      double r = recall();
      if (Double.isNaN(p) || Double.isNaN(r)) {
        return Double.NaN;
      }
      return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
    }

    public JsonObject toJson() {
      return new JsonObject().put("tp", tp).put("fp", fp).put("fn", fn).put("tn", tn)
          .put("precision", json(precision())).put("recall", json(recall())).put("f1", json(f1()));
    }
  }

  public static double ratio(double num, double den) {
    return den == 0 ? Double.NaN : num / den;
  }

  /** NaN → null for JSON; other values rounded to 4 decimals. */
  public static Double json(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10_000) / 10_000.0;
  }

  /** Fraud caught: positive = fraudulent, predicted positive = flagged (REVIEW or STOP). */
  public static Counts flagged(List<Verdict> verdicts) {
    return counts(verdicts, v -> v.subject().fraud(), v -> v.band() != Band.PASS);
  }

  /**
   * One outcome as a classifier: PASS claims the subject is honest, REVIEW and STOP claim it is fraudulent. TP = the
   * outcome given to a subject whose truth it claims, FP = given to one it does not, FN = that truth given another
   * outcome.
   */
  public static Counts outcome(List<Verdict> verdicts, Band band) {
    boolean claimsFraud = band != Band.PASS;
    return counts(verdicts, v -> v.subject().fraud() == claimsFraud, v -> v.band() == band);
  }

  static Counts counts(List<Verdict> verdicts, Function<Verdict, Boolean> truth, Function<Verdict, Boolean> predicted) {
    long tp = 0;
    long fp = 0;
    long fn = 0;
    long tn = 0;
    for (Verdict v : verdicts) {
      boolean t = truth.apply(v);
      boolean p = predicted.apply(v);
      if (t && p) {
        tp++;
      } else if (p) {
        fp++;
      } else if (t) {
        fn++;
      } else {
        tn++;
      }
    }
    return new Counts(tp, fp, fn, tn);
  }

  /** Rows fraud/honest, columns PASS/REVIEW/STOP: how many subjects of each truth got each outcome. */
  public static Map<Boolean, Map<Band, Long>> confusion(List<Verdict> verdicts) {
    Map<Boolean, Map<Band, Long>> m = new TreeMap<>();
    for (boolean fraud : new boolean[] {true, false}) {
      Map<Band, Long> row = new EnumMap<>(Band.class);
      for (Band b : Band.values()) {
        row.put(b, 0L);
      }
      m.put(fraud, row);
    }
    for (Verdict v : verdicts) {
      m.get(v.subject().fraud()).merge(v.band(), 1L, Long::sum);
    }
    return m;
  }

  /**
   * One planted pattern: its subjects by outcome; for a fraud pattern the recall (flagged / subjects) and, against
   * the honest subjects flagged in the whole world, the precision and F1 the engine would have if this were the only
   * fraud; for an honest pattern (a false-positive trap, or {@code none}) the false-positive rate (flagged / subjects).
   */
  public record PatternStats(String pattern, boolean fraud, long subjects, Map<Band, Long> outcomes,
                             long honestFlaggedInWorld) {

    public long flagged() {
      return outcomes.get(Band.REVIEW) + outcomes.get(Band.STOP);
    }

    public double recall() {
      return fraud ? ratio(flagged(), subjects) : Double.NaN;
    }

    public double precision() {
      return fraud ? ratio(flagged(), flagged() + honestFlaggedInWorld) : Double.NaN;
    }

    public double f1() {
      return fraud ? new Counts(flagged(), honestFlaggedInWorld, subjects - flagged(), 0).f1() : Double.NaN;
    }

    public double falsePositiveRate() {
      return fraud ? Double.NaN : ratio(flagged(), subjects);
    }

    public JsonObject toJson(String profile) {
      JsonObject out = new JsonObject();
      outcomes.forEach((b, n) -> out.put(b.outcomeIn(profile), n));
      return new JsonObject().put("pattern", pattern).put("fraud", fraud).put("subjects", subjects)
          .put("outcomes", out).put("recall", json(recall())).put("precision", json(precision()))
          .put("f1", json(f1())).put("falsePositiveRate", json(falsePositiveRate()));
    }
  }

  public static Map<String, PatternStats> patterns(List<Verdict> verdicts) {
    long honestFlagged = flagged(verdicts).fp();
    Map<String, List<Verdict>> by = new TreeMap<>();
    for (Verdict v : verdicts) {
      by.computeIfAbsent(v.subject().pattern(), k -> new java.util.ArrayList<>()).add(v);
    }
    Map<String, PatternStats> out = new TreeMap<>();
    by.forEach((pattern, vs) -> {
      Map<Band, Long> outcomes = new EnumMap<>(Band.class);
      for (Band b : Band.values()) {
        outcomes.put(b, 0L);
      }
      vs.forEach(v -> outcomes.merge(v.band(), 1L, Long::sum));
      boolean fraud = vs.stream().anyMatch(v -> v.subject().fraud());
      out.put(pattern, new PatternStats(pattern, fraud, vs.size(), outcomes, honestFlagged));
    });
    return out;
  }

  /**
   * A signal or a policy rule as a detector: it hits a decision when the decision names it. Hit rate = hits /
   * decisions; precision = hits on fraudulent subjects / hits; recall = fraudulent subjects hit / fraudulent subjects.
   */
  public record FeatureStats(String name, long hits, long fraudHits, long decisions, long fraudSubjects) {

    public double hitRate() {
      return ratio(hits, decisions);
    }

    public double precision() {
      return ratio(fraudHits, hits);
    }

    public double recall() {
      return ratio(fraudHits, fraudSubjects);
    }

    public JsonObject toJson() {
      return new JsonObject().put("name", name).put("hits", hits).put("fraudHits", fraudHits)
          .put("hitRate", json(hitRate())).put("precision", json(precision())).put("recall", json(recall()));
    }
  }

  public static Map<String, FeatureStats> features(List<Verdict> verdicts, Function<Verdict, List<String>> names) {
    long fraud = verdicts.stream().filter(v -> v.subject().fraud()).count();
    Map<String, long[]> hits = new TreeMap<>();
    for (Verdict v : verdicts) {
      for (String n : new java.util.LinkedHashSet<>(names.apply(v))) {
        long[] h = hits.computeIfAbsent(n, k -> new long[2]);
        h[0]++;
        if (v.subject().fraud()) {
          h[1]++;
        }
      }
    }
    Map<String, FeatureStats> out = new TreeMap<>();
    hits.forEach((n, h) -> out.put(n, new FeatureStats(n, h[0], h[1], verdicts.size(), fraud)));
    return out;
  }

  /** Share of decisions a person must look at (outcome REVIEW or status PENDING_REVIEW). */
  public static double reviewRate(List<Verdict> verdicts) {
    return ratio(verdicts.stream().filter(Verdict::needsPerson).count(), verdicts.size());
  }

  /** Share of decisions whose outcome is REVIEW. */
  public static double reviewOutcomeRate(List<Verdict> verdicts) {
    return ratio(verdicts.stream().filter(v -> v.band() == Band.REVIEW).count(), verdicts.size());
  }

  /** Nearest-rank percentile: the value at rank ceil(p/100 · n) of the sorted sample (NaN when empty). */
  public static double percentile(double[] sample, double p) {
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    if (sample.length == 0) {
      return Double.NaN;
    }
    double[] sorted = sample.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /** Decisions per second over a wall-clock span. */
  public static double throughput(long decisions, long elapsedNanos) {
    return ratio(decisions, elapsedNanos / 1e9);
  }
}
