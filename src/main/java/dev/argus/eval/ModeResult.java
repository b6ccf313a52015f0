package dev.argus.eval;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The evaluation of one mode over every judged query: mean nDCG@k, recall@100 and MRR (over the whole
 * retrieved list, at most 100 documents), per-query search latency percentiles in milliseconds, and each query's
 * nDCG@k in query order ({@code ndcgPerQuery}, for {@link PairedComparison}; empty when not kept).
 */
public record ModeResult(String mode, int k, double ndcg, double recall100, double mrr, double p50Ms, double p95Ms,
                         int queries, int cachedReplies, List<Double> ndcgPerQuery) {

  public ModeResult {
    ndcgPerQuery = List.copyOf(ndcgPerQuery);
  }

  /** A result without per-query scores. */
  public ModeResult(String mode, int k, double ndcg, double recall100, double mrr, double p50Ms, double p95Ms,
                    int queries, int cachedReplies) {
    this(mode, k, ndcg, recall100, mrr, p50Ms, p95Ms, queries, cachedReplies, List.of());
  }

  /** {@code {"mode", "ndcg@<k>", "recall@100", "mrr", "p50Ms", "p95Ms", "queries"}}, rounded to 4 decimals. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("mode", mode)
        .put("ndcg@" + k, round(ndcg))
        .put("recall@100", round(recall100))
        .put("mrr", round(mrr))
        .put("p50Ms", round(p50Ms))
        .put("p95Ms", round(p95Ms))
        .put("queries", queries);
  }

  static double round(double v) {
    return Math.round(v * 10_000.0) / 10_000.0;
  }
}
