package dev.argus.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure ranking metrics over one query: the ranked list of retrieved ids (best first) and the judged
 * relevance grades ({@code id -> grade}; a grade of 0 or less, or an id absent from the map, is not relevant).
 *
 * <p>Duplicate ids in the ranking count once, at their first position (later repeats are skipped and do not
 * take a rank). Ranks are 1-based. Conventions for the degenerate cases: a query with no relevant judged
 * document scores 0 on every metric; {@code k <= 0} is rejected.
 */
public final class RetrievalMetrics {

  private RetrievalMetrics() {
  }

  /** 1 if any relevant document is among the first {@code k} results, else 0. */
  public static double hitRate(List<String> ranked, Map<String, Integer> grades, int k) {
    return firstRelevantRank(ranked, grades, k) > 0 ? 1.0 : 0.0;
  }

  /** Reciprocal rank of the first relevant result within the first {@code k} results (0 if none). */
  public static double mrr(List<String> ranked, Map<String, Integer> grades, int k) {
    int rank = firstRelevantRank(ranked, grades, k);
    return rank > 0 ? 1.0 / rank : 0.0;
  }

  /** Reciprocal rank of the first relevant result anywhere in the ranking (0 if none). */
  public static double mrr(List<String> ranked, Map<String, Integer> grades) {
    return mrr(ranked, grades, Integer.MAX_VALUE);
  }

  /** Relevant results among the first {@code k}, divided by the number of relevant judged documents. */
  public static double recall(List<String> ranked, Map<String, Integer> grades, int k) {
    long relevantTotal = grades.values().stream().filter(g -> g != null && g > 0).count();
    if (relevantTotal == 0) {
      return 0.0;
    }
    return (double) relevantInTop(ranked, grades, k) / relevantTotal;
  }

  /** Relevant results among the first {@code k}, divided by {@code k} (missing positions count as misses). */
  public static double precision(List<String> ranked, Map<String, Integer> grades, int k) {
    requirePositive(k);
    return (double) relevantInTop(ranked, grades, k) / k;
  }

  /**
   * Normalised discounted cumulative gain at {@code k} with graded relevance: gain = grade, discount =
   * log2(rank + 1); the ideal DCG sorts all judged grades descending and takes the first {@code k}.
   */
  public static double ndcg(List<String> ranked, Map<String, Integer> grades, int k) {
    requirePositive(k);
    List<Integer> ideal = new ArrayList<>();
    for (Integer g : grades.values()) {
      if (g != null && g > 0) {
        ideal.add(g);
      }
    }
    if (ideal.isEmpty()) {
      return 0.0;
    }
    ideal.sort(Collections.reverseOrder());
    double idcg = 0;
    for (int i = 0; i < Math.min(k, ideal.size()); i++) {
      idcg += ideal.get(i) / log2(i + 2);
    }
    double dcg = 0;
    List<String> top = distinctTop(ranked, k);
    for (int i = 0; i < top.size(); i++) {
      Integer g = grades.get(top.get(i));
      if (g != null && g > 0) {
        dcg += g / log2(i + 2);
      }
    }
    return dcg / idcg;
  }

  /** The first {@code k} distinct ids of the ranking, in order. */
  static List<String> distinctTop(List<String> ranked, int k) {
    requirePositive(k);
    List<String> out = new ArrayList<>(Math.min(ranked.size(), Math.min(k, 1024)));
    Set<String> seen = new HashSet<>();
    for (String id : ranked) {
      if (out.size() >= k) {
        break;
      }
      if (id != null && seen.add(id)) {
        out.add(id);
      }
    }
    return out;
  }

  private static int firstRelevantRank(List<String> ranked, Map<String, Integer> grades, int k) {
    List<String> top = distinctTop(ranked, k);
    for (int i = 0; i < top.size(); i++) {
      Integer g = grades.get(top.get(i));
      if (g != null && g > 0) {
        return i + 1;
      }
    }
    return 0;
  }

  private static int relevantInTop(List<String> ranked, Map<String, Integer> grades, int k) {
    int n = 0;
    for (String id : distinctTop(ranked, k)) {
      Integer g = grades.get(id);
      if (g != null && g > 0) {
        n++;
      }
    }
    return n;
  }

  private static void requirePositive(int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be positive, got " + k);
    }
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
