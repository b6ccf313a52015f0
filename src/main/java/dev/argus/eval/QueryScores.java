package dev.argus.eval;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/** Every metric of one query at cut-off {@code k} (MRR is cut at {@code k} too). */
public record QueryScores(int k, double hitRate, double mrr, double ndcg, double recall, double precision) {

  public static QueryScores of(List<String> ranked, Map<String, Integer> grades, int k) {
    return new QueryScores(k,
        RetrievalMetrics.hitRate(ranked, grades, k),
        RetrievalMetrics.mrr(ranked, grades, k),
        RetrievalMetrics.ndcg(ranked, grades, k),
        RetrievalMetrics.recall(ranked, grades, k),
        RetrievalMetrics.precision(ranked, grades, k));
  }

  /** The arithmetic mean of each metric over the queries (all zero for an empty list). */
  public static QueryScores mean(List<QueryScores> all, int k) {
    if (all.isEmpty()) {
      return new QueryScores(k, 0, 0, 0, 0, 0);
    }
    double n = all.size();
    return new QueryScores(k,
        all.stream().mapToDouble(QueryScores::hitRate).sum() / n,
        all.stream().mapToDouble(QueryScores::mrr).sum() / n,
        all.stream().mapToDouble(QueryScores::ndcg).sum() / n,
        all.stream().mapToDouble(QueryScores::recall).sum() / n,
        all.stream().mapToDouble(QueryScores::precision).sum() / n);
  }

  /** {@code {"hitRate@k", "mrr@k", "ndcg@k", "recall@k", "precision@k"}}. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("hitRate@" + k, hitRate)
        .put("mrr@" + k, mrr)
        .put("ndcg@" + k, ndcg)
        .put("recall@" + k, recall)
        .put("precision@" + k, precision);
  }
}
