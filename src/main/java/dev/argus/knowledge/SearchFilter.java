package dev.argus.knowledge;

import java.util.List;

/** What every retriever filters on: an optional namespace and metadata conditions (all must hold). */
public record SearchFilter(String namespace, List<MetadataCondition> conditions) {

  public static final SearchFilter NONE = new SearchFilter(null, List.of());

  public SearchFilter {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
  }

  public static SearchFilter namespace(String namespace) {
    return new SearchFilter(namespace, List.of());
  }

  public boolean isEmpty() {
    return namespace == null && conditions.isEmpty();
  }
}
