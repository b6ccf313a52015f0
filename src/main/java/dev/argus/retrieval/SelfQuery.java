package dev.argus.retrieval;

import io.vertx.core.Future;

import java.util.Set;

/**
 * The self-query step: finds filters a user stated in the query text ("namespace:cases", "in 2023",
 * "category: policy"), and returns them with the query cleaned of those phrases. Implementations never fail
 * a search (they return no filters instead) and never drop the whole query. The rule-based
 * {@link RuleBasedSelfQuery} is the default; an LLM-based one plugs in behind the same interface.
 */
public interface SelfQuery {

  /**
   * @param query           the user's query
   * @param knownNamespaces the namespaces that exist (a namespace phrase only counts for one of these)
   */
  Future<SelfQueryResult> extract(String query, Set<String> knownNamespaces);
}
