package dev.argus.eval;

import java.util.Arrays;
import java.util.List;

/** Latency percentiles by the nearest-rank method: the value at rank ceil(p/100 * n) of the sorted sample. */
public final class Percentiles {

  private Percentiles() {
  }

  public static double of(List<Double> sample, double p) {
    if (p <= 0 || p > 100) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    if (sample.isEmpty()) {
      return 0.0;
    }
    double[] sorted = sample.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
