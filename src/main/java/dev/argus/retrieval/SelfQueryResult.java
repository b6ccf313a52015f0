package dev.argus.retrieval;

import java.util.List;

/** What the self-query step found: the query without the filter phrases, and the filters, in text order. */
public record SelfQueryResult(String cleanedQuery, List<InferredFilter> filters) {

  public SelfQueryResult {
    filters = List.copyOf(filters);
  }

  /** Nothing found: the query unchanged. */
  public static SelfQueryResult none(String query) {
    return new SelfQueryResult(query, List.of());
  }
}
