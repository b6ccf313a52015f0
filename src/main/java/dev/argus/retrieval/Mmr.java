package dev.argus.retrieval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Maximal marginal relevance (Carbonell and Goldstein, 1998): re-orders fused hits so that near-duplicates do
 * not crowd the top. Greedily picks the hit maximizing {@code lambda * relevance - (1 - lambda) * max
 * similarity to the hits already picked}.
 *
 * <p>Relevance is the fused score min-max normalized over the candidates (best 1, worst 0). Similarity between
 * two chunks is the Jaccard overlap of their token sets (lower-cased letter/digit runs of at least 3
 * characters): the store does not return chunk vectors with its hits, and token overlap is cheap, needs no
 * model call, and catches what MMR is for here (overlapping chunks of one document, copies of one text).
 * {@code lambda = 1} keeps the fused order; {@code lambda = 0} maximizes diversity only. Ties go to the hit
 * ranked earlier. Hits keep their fused scores; only their order changes.
 */
public final class Mmr {

  private Mmr() {
  }

  /** The first {@code k} hits of {@code candidates} (best first) in MMR order. */
  public static List<FusedHit> rerank(List<FusedHit> candidates, int k, double lambda) {
    int n = candidates.size();
    int want = Math.min(k, n);
    List<FusedHit> out = new ArrayList<>(want);
    if (want == 0) {
      return out;
    }
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    List<Set<String>> tokens = new ArrayList<>(n);
    for (FusedHit h : candidates) {
      max = Math.max(max, h.score());
      min = Math.min(min, h.score());
      tokens.add(tokens(h.chunk().text()));
    }
    double[] relevance = new double[n];
    for (int i = 0; i < n; i++) {
      relevance[i] = max == min ? 1.0 : (candidates.get(i).score() - min) / (max - min);
    }
    double[] maxSim = new double[n];
    boolean[] picked = new boolean[n];
    for (int step = 0; step < want; step++) {
      int best = -1;
      double bestValue = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < n; i++) {
        if (picked[i]) {
          continue;
        }
        double value = lambda * relevance[i] - (1 - lambda) * maxSim[i];
        if (value > bestValue) {
          bestValue = value;
          best = i;
        }
      }
      picked[best] = true;
      out.add(candidates.get(best));
      for (int i = 0; i < n; i++) {
        if (!picked[i]) {
          maxSim[i] = Math.max(maxSim[i], jaccard(tokens.get(i), tokens.get(best)));
        }
      }
    }
    return out;
  }

  /** Lower-cased runs of letters and digits of at least 3 characters. */
  static Set<String> tokens(String text) {
    Set<String> out = new HashSet<>();
    if (text == null) {
      return out;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    int start = -1;
    for (int i = 0; i <= lower.length(); i++) {
      boolean word = i < lower.length() && Character.isLetterOrDigit(lower.charAt(i));
      if (word && start < 0) {
        start = i;
      } else if (!word && start >= 0) {
        if (i - start >= 3) {
          out.add(lower.substring(start, i));
        }
        start = -1;
      }
    }
    return out;
  }

  /** |a ∩ b| / |a ∪ b|; 0 when both are empty. */
  static double jaccard(Set<String> a, Set<String> b) {
    if (a.isEmpty() && b.isEmpty()) {
      return 0;
    }
    Set<String> small = a.size() <= b.size() ? a : b;
    Set<String> large = small == a ? b : a;
    int common = 0;
    for (String t : small) {
      if (large.contains(t)) {
        common++;
      }
    }
    return (double) common / (a.size() + b.size() - common);
  }

  /** Convenience for tests and callers that hold texts: the Jaccard similarity of two texts' token sets. */
  public static double similarity(String a, String b) {
    return jaccard(tokens(a), tokens(b));
  }
}
