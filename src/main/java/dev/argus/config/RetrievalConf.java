package dev.argus.config;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Section {@code retrieval}: hybrid retrieval, fusion, cache and self-query. {@code selfQueryKeys} are the
 * metadata keys the rule-based self-query reads from {@code key:value} phrases; {@code selfQueryDateKey} is the
 * metadata key (ISO dates) that date phrases such as "in 2023" or "since 2021-06" filter on.
 *
 * <p>{@code fusion} defaults to {@code weighted}: on SciFact (5,183 abstracts, 809 train queries) weighted fusion
 * of the three retrievers scored nDCG@10 0.770 against 0.744 for the vector retriever alone, while RRF with
 * k = 60 over the three scored 0.730 (the weaker trigram leg counts as much as the others there).
 *
 * <p>{@code trigram} is {@code auto} (default) or {@code always}. With {@code auto}, a search that does not name
 * its retrievers runs the trigram leg only when {@link dev.argus.retrieval.TrigramPolicy} says the query needs
 * it (identifiers, emails, short queries where a typo matters); on long natural-language questions it added no
 * quality on SciFact (weighted vector + keyword 0.770 = all three 0.770) but was the slowest leg.
 */
public record RetrievalConf(int defaultTopK, int maxTopK, int candidates, String fusion, int rrfK,
                            double vectorWeight, double keywordWeight, double trigramWeight, long cacheTtlMs,
                            int cacheMaxEntries, double mmrLambda, long timeoutMs, List<String> selfQueryKeys,
                            String selfQueryDateKey, String trigram) {

  public static final String RRF = "rrf";
  public static final String WEIGHTED = "weighted";
  /** The trigram leg runs on every hybrid search. */
  public static final String TRIGRAM_ALWAYS = "always";
  /** The trigram leg runs on hybrid searches that name no retrievers only when the query needs it. */
  public static final String TRIGRAM_AUTO = "auto";

  public static RetrievalConf from(Settings s) {
    JsonObject w = s.object("weights", new JsonObject());
    Settings weights = new Settings("retrieval.weights", w);
    int topK = s.intIn("defaultTopK", 10, 1, 1000);
    int maxTopK = s.intIn("maxTopK", 100, 1, 1000);
    if (topK > maxTopK) {
      throw s.error("defaultTopK", "must not exceed maxTopK (" + maxTopK + ")");
    }
    return new RetrievalConf(topK, maxTopK,
        s.intIn("candidates", 30, 1, 10_000),
        s.oneOf("fusion", WEIGHTED, RRF, WEIGHTED),
        s.intIn("rrfK", 60, 1, 10_000),
        weights.doubleIn("vector", 0.5, 0, 100),
        weights.doubleIn("keyword", 0.3, 0, 100),
        weights.doubleIn("trigram", 0.2, 0, 100),
        s.longIn("cacheTtlMs", 30_000, 0, 86_400_000),
        s.intIn("cacheMaxEntries", 1000, 0, 1_000_000),
        s.doubleIn("mmrLambda", 0.7, 0, 1),
        s.longIn("timeoutMs", 10_000, 100, 600_000),
        metadataKeys(s, "selfQueryKeys", s.strings("selfQueryKeys", List.of("category", "region", "risk"))),
        metadataKeys(s, "selfQueryDateKey", List.of(s.nonBlank("selfQueryDateKey", "date"))).get(0),
        s.oneOf("trigram", TRIGRAM_AUTO, TRIGRAM_AUTO, TRIGRAM_ALWAYS));
  }

  /** Self-query keys end up in metadata filters: plain identifiers only. */
  private static List<String> metadataKeys(Settings s, String setting, List<String> keys) {
    for (String k : keys) {
      if (!k.matches("[A-Za-z_][A-Za-z0-9_.-]{0,63}")) {
        throw s.error(setting, "'" + k + "' is not a metadata key (letters, digits, '_', '.', '-')");
      }
    }
    return List.copyOf(keys);
  }
}
