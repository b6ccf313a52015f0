package dev.argus.feedback.calibration;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Isotonic regression by pool-adjacent-violators: the non-decreasing step function of confidence that minimises the
 * squared error to the 0/1 outcomes. Outcomes are sorted by confidence; equal confidences form one block from the
 * start; then, left to right, a block whose mean is below its left neighbour's is merged with it (weighted mean) until
 * the means are non-decreasing. A pure function; O(n log n) for the sort, O(n) for the pooling.
 */
public final class Isotonic {

  /** One fitted block: confidences {@code [xMin, xMax]} map to {@code value}, fitted from {@code weight} outcomes. */
  public record Block(double xMin, double xMax, double value, int weight) {
  }

  private Isotonic() {
  }

  public static List<Block> fit(List<Outcome> outcomes) {
    List<Outcome> sorted = new ArrayList<>(outcomes);
    sorted.sort(Comparator.comparingDouble(Outcome::confidence));
    // Stack of pooled blocks, as parallel arrays: xMin, xMax, sum of y, weight.
    int n = sorted.size();
    double[] lo = new double[n];
    double[] hi = new double[n];
    double[] sum = new double[n];
    int[] w = new int[n];
    int top = -1;
    for (int i = 0; i < n; i++) {
      Outcome o = sorted.get(i);
      double y = o.correct() ? 1 : 0;
      if (top >= 0 && hi[top] == o.confidence()) { // ties share one block
        sum[top] += y;
        w[top]++;
      } else {
        top++;
        lo[top] = o.confidence();
        hi[top] = o.confidence();
        sum[top] = y;
        w[top] = 1;
      }
      // Pool while the last block's mean is below the previous one's (cross-multiplied: no division).
      while (top > 0 && sum[top] * w[top - 1] < sum[top - 1] * w[top]) {
        hi[top - 1] = hi[top];
        sum[top - 1] += sum[top];
        w[top - 1] += w[top];
        top--;
      }
    }
    List<Block> blocks = new ArrayList<>(top + 1);
    for (int b = 0; b <= top; b++) {
      blocks.add(new Block(lo[b], hi[b], sum[b] / w[b], w[b]));
    }
    return List.copyOf(blocks);
  }
}
