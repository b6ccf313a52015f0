package dev.argus.backtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Proposes the two score thresholds of a profile that minimise the expected cost on labelled data: a subject with
 * {@code riskScore ≥ reject} is stopped, with {@code review ≤ riskScore < reject} reviewed, below {@code review} let
 * through. Every pair of cuts between distinct observed scores is tried (prefix sums, O(k²) for k distinct scores; k is
 * capped by rounding scores to 0.1 when there are more than {@link #MAX_CUTS}); a pair whose review share exceeds the
 * cost model's {@code maxReviewRate} is not eligible. Ties go to fewer reviews, then to fewer stops. A threshold is
 * placed halfway between the two observed scores it separates (0 below the lowest, 101 above a top score of 100 —
 * "never"), so the proposal does not sit on a score seen in the data.
 */
public final class ThresholdOptimizer {

  static final int MAX_CUTS = 2_000;
  static final int CURVE_POINTS = 101;

  private ThresholdOptimizer() {
  }

  /** One labelled score. */
  public record Scored(double score, boolean fraud) {
  }

  /** The outcome of one pair of thresholds on the labelled data. */
  public record Point(double review, double reject, long fraudPassed, long fraudReviewed, long fraudStopped,
                      long honestPassed, long honestReviewed, long honestStopped, double cost) {

    public long total() {
      return fraudPassed + fraudReviewed + fraudStopped + honestPassed + honestReviewed + honestStopped;
    }

    public double recall() {
      return Metrics.ratio(fraudReviewed + fraudStopped, fraudPassed + fraudReviewed + fraudStopped);
    }

    public double precision() {
      return Metrics.ratio(fraudReviewed + fraudStopped, fraudReviewed + fraudStopped + honestReviewed + honestStopped);
    }

    public double reviewRate() {
      return Metrics.ratio(fraudReviewed + honestReviewed, total());
    }

    public JsonObject toJson() {
      return new JsonObject().put("review", review).put("reject", reject).put("cost", Math.round(cost * 100) / 100.0)
          .put("recall", Metrics.json(recall())).put("precision", Metrics.json(precision()))
          .put("reviewRate", Metrics.json(reviewRate())).put("fraudPassed", fraudPassed)
          .put("fraudReviewed", fraudReviewed).put("fraudStopped", fraudStopped).put("honestPassed", honestPassed)
          .put("honestReviewed", honestReviewed).put("honestStopped", honestStopped);
    }
  }

  /** The best pair and the trade-off curve: for each review threshold, the best reject threshold and its figures. */
  public record Proposal(Point best, List<Point> curve, CostModel costs) {

    public JsonObject toJson() {
      JsonArray c = new JsonArray();
      curve.forEach(p -> c.add(p.toJson()));
      return new JsonObject().put("costs", costs.toJson())
          .put("proposed", best == null ? null : best.toJson()).put("curve", c);
    }
  }

  public static Proposal propose(List<Scored> data, CostModel costs) {
    if (data.isEmpty()) {
      return new Proposal(null, List.of(), costs);
    }
    boolean round = data.stream().map(Scored::score).distinct().count() > MAX_CUTS - 1;
    double[] cuts = cuts(data, round);
    int k = cuts.length; // cut i: score ≥ cuts[i]; cuts[k - 1] = +∞ (nothing at or above)
    // fraudBelow[i], honestBelow[i]: subjects with score < cuts[i]
    long[] fraudBelow = new long[k];
    long[] honestBelow = new long[k];
    double[] scores = data.stream().mapToDouble(s -> round ? Math.round(s.score() * 10) / 10.0 : s.score()).toArray();
    for (int d = 0; d < data.size(); d++) {
      int first = firstCutAbove(cuts, scores[d]); // first cut > score: the subject is below it and every later cut
      if (data.get(d).fraud()) {
        fraudBelow[first]++;
      } else {
        honestBelow[first]++;
      }
    }
    for (int i = 1; i < k; i++) {
      fraudBelow[i] += fraudBelow[i - 1];
      honestBelow[i] += honestBelow[i - 1];
    }
    long fraud = fraudBelow[k - 1];
    long honest = honestBelow[k - 1];
    long n = fraud + honest;
    long maxReviews = (long) Math.floor(costs.maxReviewRate() * n + 1e-9);
    Point best = null;
    List<Point> perReview = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      Point bestForI = null;
      for (int j = i; j < k; j++) {
        long reviewed = fraudBelow[j] - fraudBelow[i] + honestBelow[j] - honestBelow[i];
        if (reviewed > maxReviews) {
          break; // reviews only grow with j
        }
        Point p = point(cuts, i, j, fraudBelow, honestBelow, fraud, honest, costs);
        if (better(p, bestForI)) {
          bestForI = p;
        }
      }
      if (bestForI != null) {
        perReview.add(bestForI);
        if (better(bestForI, best)) {
          best = bestForI;
        }
      }
    }
    return new Proposal(best, thin(perReview), costs);
  }

  private static Point point(double[] cuts, int i, int j, long[] fraudBelow, long[] honestBelow, long fraud,
                             long honest, CostModel costs) {
    long fp = fraudBelow[i];
    long fr = fraudBelow[j] - fraudBelow[i];
    long fs = fraud - fraudBelow[j];
    long hp = honestBelow[i];
    long hr = honestBelow[j] - honestBelow[i];
    long hs = honest - honestBelow[j];
    return new Point(threshold(cuts, i), threshold(cuts, j), fp, fr, fs, hp, hr, hs, costs.cost(fp, hs, fr + hr));
  }

  private static boolean better(Point p, Point than) {
    if (than == null) {
      return true;
    }
    if (Math.abs(p.cost() - than.cost()) > 1e-9) {
      return p.cost() < than.cost();
    }
    long pr = p.fraudReviewed() + p.honestReviewed();
    long tr = than.fraudReviewed() + than.honestReviewed();
    if (pr != tr) {
      return pr < tr;
    }
    return p.fraudStopped() + p.honestStopped() < than.fraudStopped() + than.honestStopped();
  }

  /** Distinct scores ascending (rounded to 0.1 when there are too many), then +∞. */
  static double[] cuts(List<Scored> data, boolean round) {
    TreeSet<Double> distinct = new TreeSet<>();
    data.forEach(s -> distinct.add(round ? Math.round(s.score() * 10) / 10.0 : s.score()));
    double[] cuts = new double[distinct.size() + 1];
    int i = 0;
    for (double d : distinct) {
      cuts[i++] = d;
    }
    cuts[i] = Double.POSITIVE_INFINITY;
    return cuts;
  }

  private static int firstCutAbove(double[] cuts, double score) {
    int idx = Arrays.binarySearch(cuts, 0, cuts.length - 1, score);
    return idx >= 0 ? idx + 1 : -idx - 1;
  }

  /** The threshold for "score ≥ cuts[i]": halfway between cuts[i] and the score below it. */
  static double threshold(double[] cuts, int i) {
    if (i == 0) {
      return 0.0;
    }
    double below = cuts[i - 1];
    double at = Double.isInfinite(cuts[i]) ? (below < 100 ? 100 : 102) : cuts[i];
    return Math.round((below + at) / 2 * 100) / 100.0;
  }

  /** At most {@link #CURVE_POINTS} points, evenly spaced, always keeping the first and last. */
  private static List<Point> thin(List<Point> points) {
    if (points.size() <= CURVE_POINTS) {
      return points;
    }
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < CURVE_POINTS; i++) {
      out.add(points.get((int) Math.round(i * (points.size() - 1) / (double) (CURVE_POINTS - 1))));
    }
    return out;
  }
}
