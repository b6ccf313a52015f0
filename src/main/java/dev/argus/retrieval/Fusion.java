package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure fusion functions: several rankings (each best first) in, one ranking of distinct chunks out.
 *
 * <p>Chunks are identified by {@link ScoredChunk#key()} (document id and chunk index). Within one
 * retriever's list only the first occurrence of a chunk counts, so ranks are 1-based positions among distinct
 * chunks. Every fused hit keeps, for each retriever that found it, that retriever's rank and score.
 * Ties on the fused score are broken by the best single rank, then by the chunk key, so the output is
 * deterministic for the same inputs.
 */
public final class Fusion {

  private Fusion() {
  }

  /**
   * Reciprocal rank fusion (Cormack et al., 2009): {@code score(d) = sum over retrievers r that found d of
   * 1 / (k + rank_r(d))}. Only ranks matter, so retrievers with incomparable score scales fuse well.
   *
   * @param rankings each retriever's hits, best first
   * @param k        the damping constant ({@code retrieval.rrfK}, 60 by default); larger k flattens the
   *                 advantage of top ranks
   */
  public static List<FusedHit> reciprocalRank(Map<Retriever, List<ScoredChunk>> rankings, int k) {
    if (k < 0) {
      throw new IllegalArgumentException("k must not be negative");
    }
    Map<String, Acc> acc = collect(rankings);
    for (Acc a : acc.values()) {
      double s = 0;
      for (LegHit leg : a.legs.values()) {
        s += 1.0 / (k + leg.rank());
      }
      a.score = s;
    }
    return sorted(acc);
  }

  /**
   * Weighted fusion of min-max normalized scores: {@code score(d) = sum over retrievers r that found d of
   * w_r * norm_r(d)}, with {@code norm_r(d) = (s_r(d) - worst_r) / (best_r - worst_r)} where best and worst are
   * the scores at the top and at the bottom of retriever r's list (so a retriever whose scores grow downwards,
   * such as raw BM25 distances, is normalized the right way round); when every score of a list is equal, each
   * of its hits gets 1. Weights are divided by their sum over the retrievers present in {@code rankings}, so
   * fused scores lie in [0, 1]; if that sum is 0 the retrievers count equally. A retriever that did not find
   * a chunk contributes 0 for it.
   */
  public static List<FusedHit> weighted(Map<Retriever, List<ScoredChunk>> rankings, Map<Retriever, Double> weights) {
    double total = 0;
    for (Retriever r : rankings.keySet()) {
      total += Math.max(0, weights.getOrDefault(r, 0.0));
    }
    Map<Retriever, Double> w = new EnumMap<>(Retriever.class);
    for (Retriever r : rankings.keySet()) {
      w.put(r, total > 0 ? Math.max(0, weights.getOrDefault(r, 0.0)) / total : 1.0 / rankings.size());
    }
    Map<String, Acc> acc = collect(rankings);
    Map<Retriever, double[]> bounds = new EnumMap<>(Retriever.class);
    rankings.forEach((r, list) -> {
      List<ScoredChunk> distinct = distinct(list);
      if (!distinct.isEmpty()) {
        bounds.put(r, new double[] {distinct.get(0).score(), distinct.get(distinct.size() - 1).score()});
      }
    });
    for (Acc a : acc.values()) {
      double s = 0;
      for (Map.Entry<Retriever, LegHit> e : a.legs.entrySet()) {
        double[] b = bounds.get(e.getKey());
        s += w.get(e.getKey()) * normalize(e.getValue().score(), b[0], b[1]);
      }
      a.score = s;
    }
    return sorted(acc);
  }

  /** Min-max normalization oriented by the list's order: the top score maps to 1, the bottom score to 0. */
  static double normalize(double score, double best, double worst) {
    if (best == worst) {
      return 1.0;
    }
    return (score - worst) / (best - worst);
  }

  /** One retriever's ranking unchanged: the fused score is that retriever's score, the order its order. */
  public static List<FusedHit> single(Retriever retriever, List<ScoredChunk> ranking) {
    List<FusedHit> out = new ArrayList<>();
    int rank = 0;
    for (ScoredChunk c : distinct(ranking)) {
      rank++;
      out.add(new FusedHit(c, c.score(), Map.of(retriever, new LegHit(rank, c.score()))));
    }
    return out;
  }

  private static List<ScoredChunk> distinct(List<ScoredChunk> list) {
    Set<String> seen = new HashSet<>();
    List<ScoredChunk> out = new ArrayList<>(list.size());
    for (ScoredChunk c : list) {
      if (seen.add(c.key())) {
        out.add(c);
      }
    }
    return out;
  }

  private static Map<String, Acc> collect(Map<Retriever, List<ScoredChunk>> rankings) {
    Map<String, Acc> acc = new LinkedHashMap<>();
    // EnumMap iteration (or sorting by enum order) keeps the representative chunk deterministic.
    List<Retriever> order = new ArrayList<>(rankings.keySet());
    order.sort(Comparator.naturalOrder());
    for (Retriever r : order) {
      int rank = 0;
      for (ScoredChunk c : distinct(rankings.get(r))) {
        rank++;
        Acc a = acc.computeIfAbsent(c.key(), key -> new Acc(c));
        a.legs.put(r, new LegHit(rank, c.score()));
      }
    }
    return acc;
  }

  private static List<FusedHit> sorted(Map<String, Acc> acc) {
    List<Acc> list = new ArrayList<>(acc.values());
    list.sort(Comparator.comparingDouble((Acc a) -> a.score).reversed()
        .thenComparingInt(Acc::bestRank)
        .thenComparing(a -> a.chunk.key()));
    List<FusedHit> out = new ArrayList<>(list.size());
    for (Acc a : list) {
      out.add(new FusedHit(a.chunk, a.score, a.legs));
    }
    return out;
  }

  private static final class Acc {
    final ScoredChunk chunk;
    final Map<Retriever, LegHit> legs = new EnumMap<>(Retriever.class);
    double score;

    Acc(ScoredChunk chunk) {
      this.chunk = chunk;
    }

    int bestRank() {
      int best = Integer.MAX_VALUE;
      for (LegHit l : legs.values()) {
        best = Math.min(best, l.rank());
      }
      return best;
    }
  }
}
