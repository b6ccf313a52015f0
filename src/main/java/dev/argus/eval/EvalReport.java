package dev.argus.eval;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The one table and the JSON document that {@code eval-retrieval} produces. */
public final class EvalReport {

  private EvalReport() {
  }

  /** A fixed-width table: mode, nDCG@k, recall@100, MRR, p50 ms, p95 ms, queries. */
  public static String table(List<ModeResult> results) {
    int k = results.isEmpty() ? 10 : results.get(0).k();
    StringBuilder sb = new StringBuilder();
    String header = String.format(Locale.ROOT, "%-8s  %8s  %10s  %6s  %8s  %8s  %7s%n", "mode", "nDCG@" + k,
        "recall@100", "MRR", "p50 ms", "p95 ms", "queries");
    sb.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (ModeResult r : results) {
      sb.append(String.format(Locale.ROOT, "%-8s  %8.4f  %10.4f  %6.4f  %8.1f  %8.1f  %7d%n", r.mode(), r.ndcg(),
          r.recall100(), r.mrr(), r.p50Ms(), r.p95Ms(), r.queries()));
    }
    List<PairedComparison> comparisons = comparisons(results);
    if (!comparisons.isEmpty()) {
      sb.append('\n');
      comparisons.forEach(c -> sb.append(c.line("nDCG@" + k)).append('\n'));
    }
    return sb.toString();
  }

  /**
   * The first mode against each of the others, query by query ({@link PairedComparison} of nDCG@k); none when
   * fewer than two modes kept their per-query scores.
   */
  public static List<PairedComparison> comparisons(List<ModeResult> results) {
    List<ModeResult> kept = results.stream().filter(r -> !r.ndcgPerQuery().isEmpty()).toList();
    List<PairedComparison> out = new ArrayList<>();
    for (int i = 1; i < kept.size(); i++) {
      ModeResult first = kept.get(0);
      ModeResult other = kept.get(i);
      out.add(PairedComparison.of(first.mode(), other.mode(), first.ndcgPerQuery(), other.ndcgPerQuery()));
    }
    return out;
  }

  /**
   * {@code {"modes": [{"mode", "ndcg@10", "recall@100", "mrr", "p50Ms", "p95Ms", "queries"}, ...], "comparisons":
   * [{"a", "b", "meanDifference", "wins", "losses", "ties", "p"}, ...]}} (see {@link #comparisons}).
   */
  public static JsonObject json(List<ModeResult> results) {
    JsonArray modes = new JsonArray();
    results.forEach(r -> modes.add(r.toJson()));
    JsonArray comparisons = new JsonArray();
    comparisons(results).forEach(c -> comparisons.add(c.toJson()));
    return new JsonObject().put("modes", modes).put("comparisons", comparisons);
  }
}
