package dev.argus.eval;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code eval-retrieval} reports: every mode's result and the first mode compared with each of the others
 * (computed once, in {@link #of}), as one table ({@link #table}) and one JSON document ({@link #json}).
 */
public record EvalReport(List<ModeResult> modes, List<PairedComparison> comparisons) {

  public EvalReport {
    modes = List.copyOf(modes);
    comparisons = List.copyOf(comparisons);
  }

  /** The report of these results, with their comparisons ({@link #comparisons(List)}). */
  public static EvalReport of(List<ModeResult> results) {
    return new EvalReport(results, comparisons(results));
  }

  /**
   * The first mode against each of the others, query by query ({@link PairedComparison} of nDCG@k); none when
   * fewer than two modes kept their per-query scores.
   */
  static List<PairedComparison> comparisons(List<ModeResult> results) {
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
   * A fixed-width table: mode, nDCG@k, recall@100, MRR, p50 ms, p95 ms, queries; then, after a blank line, one line
   * per comparison.
   */
  public String table() {
    int k = modes.isEmpty() ? 10 : modes.get(0).k();
    StringBuilder sb = new StringBuilder();
    String header = String.format(Locale.ROOT, "%-8s  %8s  %10s  %6s  %8s  %8s  %7s%n", "mode", "nDCG@" + k,
        "recall@100", "MRR", "p50 ms", "p95 ms", "queries");
    sb.append(header).append("-".repeat(header.length() - 1)).append('\n');
    for (ModeResult r : modes) {
      sb.append(String.format(Locale.ROOT, "%-8s  %8.4f  %10.4f  %6.4f  %8.1f  %8.1f  %7d%n", r.mode(), r.ndcg(),
          r.recall100(), r.mrr(), r.p50Ms(), r.p95Ms(), r.queries()));
    }
    if (!comparisons.isEmpty()) {
      sb.append('\n');
      comparisons.forEach(c -> sb.append(c.line("nDCG@" + k)).append('\n'));
    }
    return sb.toString();
  }

  /**
   * {@code {"modes": [{"mode", "ndcg@10", "recall@100", "mrr", "p50Ms", "p95Ms", "queries"}, ...], "comparisons":
   * [{"a", "b", "meanDifference", "wins", "losses", "ties", "p"}, ...]}}.
   */
  public JsonObject json() {
    JsonArray modesJson = new JsonArray();
    modes.forEach(r -> modesJson.add(r.toJson()));
    JsonArray comparisonsJson = new JsonArray();
    comparisons.forEach(c -> comparisonsJson.add(c.toJson()));
    return new JsonObject().put("modes", modesJson).put("comparisons", comparisonsJson);
  }
}
