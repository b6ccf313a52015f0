package dev.argus.eval;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Whether one mode's per-query scores differ from another's by more than chance: the mean of the paired
 * differences ({@code a - b}, query by query), how many queries each side wins, and the two-sided p-value of a
 * paired randomization (sign-flip) test. Under the null hypothesis that the two modes are exchangeable, each
 * query's difference is as likely to have the other sign; the p-value is the share of the 2<sup>n</sup> sign
 * assignments whose mean difference is at least as far from zero as the observed one. Queries on which both modes
 * score the same contribute nothing whatever their sign, so only the {@code n} non-zero differences are flipped:
 * all assignments are enumerated when {@code n <= }{@value #EXACT_MAX}, otherwise {@value #SAMPLES} random ones are
 * drawn from a fixed seed (so a run is repeatable) and {@code p = (hits + 1) / (samples + 1)}.
 *
 * <p>This is the test IR evaluation uses to tell two rankers apart on one query set (Smucker, Allan and
 * Carterette, 2007). The default search and the all-three hybrid on PostgreSQL, 0.0020 nDCG@10 apart over SciFact's
 * 809 train queries, have p = 0.375: that query set cannot tell them apart.
 */
public record PairedComparison(String a, String b, double meanDifference, int wins, int losses, int ties,
                               double p) {

  static final int EXACT_MAX = 20;
  static final int SAMPLES = 100_000;
  private static final long SEED = 20_071_106L;
  private static final double EPSILON = 1e-12;

  /**
   * Compares per-query scores {@code x} (mode {@code a}) with {@code y} (mode {@code b}), the same queries in the
   * same order.
   *
   * @throws IllegalArgumentException if the lists differ in length or are empty
   */
  public static PairedComparison of(String a, String b, List<Double> x, List<Double> y) {
    if (x.size() != y.size() || x.isEmpty()) {
      throw new IllegalArgumentException("paired scores need the same non-empty query set (" + x.size() + " vs "
          + y.size() + ")");
    }
    List<Double> nonZero = new ArrayList<>();
    double sum = 0;
    int wins = 0;
    int losses = 0;
    for (int i = 0; i < x.size(); i++) {
      double d = x.get(i) - y.get(i);
      sum += d;
      if (Math.abs(d) <= EPSILON) {
        continue;
      }
      nonZero.add(d);
      if (d > 0) {
        wins++;
      } else {
        losses++;
      }
    }
    double[] d = nonZero.stream().mapToDouble(Double::doubleValue).toArray();
    double p = d.length == 0 ? 1.0 : d.length <= EXACT_MAX ? exactP(d) : sampledP(d);
    return new PairedComparison(a, b, sum / x.size(), wins, losses, x.size() - wins - losses, p);
  }

  /** Every sign assignment: the share whose |sum| reaches the observed |sum|. */
  static double exactP(double[] d) {
    double observed = Math.abs(sum(d)) - EPSILON;
    long assignments = 1L << d.length;
    long hits = 0;
    for (long signs = 0; signs < assignments; signs++) {
      double s = 0;
      for (int i = 0; i < d.length; i++) {
        s += (signs >>> i & 1) == 0 ? d[i] : -d[i];
      }
      if (Math.abs(s) >= observed) {
        hits++;
      }
    }
    return (double) hits / assignments;
  }

  /** {@value #SAMPLES} random sign assignments from a fixed seed, counting the observed one as a hit. */
  static double sampledP(double[] d) {
    double observed = Math.abs(sum(d)) - EPSILON;
    SplittableRandom random = new SplittableRandom(SEED);
    long hits = 0;
    for (int sample = 0; sample < SAMPLES; sample++) {
      double s = 0;
      for (double v : d) {
        s += random.nextBoolean() ? v : -v;
      }
      if (Math.abs(s) >= observed) {
        hits++;
      }
    }
    return (hits + 1.0) / (SAMPLES + 1.0);
  }

  private static double sum(double[] d) {
    double s = 0;
    for (double v : d) {
      s += v;
    }
    return s;
  }

  /**
   * One line: {@code hybrid-default vs hybrid: mean nDCG@10 difference -0.0020 (wins 37, losses 25, ties 747), paired
   * randomization p = 0.375 (not significant at 0.05)}; below 0.001, {@code p < 0.001}.
   */
  public String line(String metric) {
    String pValue = p < 0.001 ? "p < 0.001" : String.format(Locale.ROOT, "p = %.3f", p);
    return String.format(Locale.ROOT, "%s vs %s: mean %s difference %+.4f (wins %d, losses %d, ties %d),"
        + " paired randomization %s%s", a, b, metric, meanDifference, wins, losses, ties, pValue,
        p < 0.05 ? "" : " (not significant at 0.05)");
  }

  /** {@code {"a", "b", "meanDifference", "wins", "losses", "ties", "p"}}, rounded to 4 decimals. */
  public JsonObject toJson() {
    return new JsonObject().put("a", a).put("b", b).put("meanDifference", ModeResult.round(meanDifference))
        .put("wins", wins).put("losses", losses).put("ties", ties).put("p", ModeResult.round(p));
  }
}
