package dev.argus.knowledge;

import java.util.List;
import java.util.Set;

/**
 * What every retriever filters on: an optional namespace, metadata conditions (all must hold), and the namespaces
 * the caller may see ({@code allowedNamespaces}; {@code null}: all), which is document-level access control: every
 * leg of every store applies it inside its own scan, so a key limited to some namespaces never sees a chunk of
 * another one, whatever else the request says.
 */
public record SearchFilter(String namespace, List<MetadataCondition> conditions, Set<String> allowedNamespaces) {

  public static final SearchFilter NONE = new SearchFilter(null, List.of());

  public SearchFilter {
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    allowedNamespaces = allowedNamespaces == null ? null : Set.copyOf(allowedNamespaces);
  }

  public SearchFilter(String namespace, List<MetadataCondition> conditions) {
    this(namespace, conditions, null);
  }

  public static SearchFilter namespace(String namespace) {
    return new SearchFilter(namespace, List.of());
  }

  /** The same filter, limited to {@code allowed} namespaces ({@code null}: unchanged). */
  public SearchFilter limitedTo(Set<String> allowed) {
    return allowed == null ? this : new SearchFilter(namespace, conditions, allowed);
  }

  /** True when a document of {@code ns} may be seen under the namespace limit. */
  public boolean allows(String ns) {
    return allowedNamespaces == null || allowedNamespaces.contains(ns);
  }

  public boolean isEmpty() {
    return namespace == null && conditions.isEmpty() && allowedNamespaces == null;
  }
}
