package dev.argus.retrieval;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The filter a search actually applied inside every retriever ({@code namespace}, {@code conditions}: the
 * request's explicit ones plus the applied inferred ones), and what the self-query step read from the query
 * ({@code fromQuery}, each with its phrase and whether it was applied or overridden by an explicit filter).
 * {@code relaxed} is true when the inferred filters matched nothing and the search ran again without them (they
 * are then all reported as not applied).
 */
public record AppliedFilters(String namespace, List<MetadataCondition> conditions, List<InferredFilter> fromQuery,
                             boolean relaxed) {

  public AppliedFilters {
    conditions = List.copyOf(conditions);
    fromQuery = List.copyOf(fromQuery);
  }

  public boolean anyInferredApplied() {
    return fromQuery.stream().anyMatch(InferredFilter::applied);
  }

  /** The request's own filters only; every inferred filter reported as not applied. */
  public AppliedFilters relaxed(SearchRequest request) {
    return new AppliedFilters(request.namespace(), request.conditions(),
        fromQuery.stream().map(f -> f.applied() ? f.overridden() : f).toList(), true);
  }

  public SearchFilter toSearchFilter() {
    return new SearchFilter(namespace, conditions);
  }

  public JsonObject toJson() {
    JsonArray inferred = new JsonArray();
    fromQuery.forEach(f -> inferred.add(f.toJson()));
    return new JsonObject().put("namespace", namespace).put("conditions", Filters.toJson(conditions))
        .put("fromQuery", inferred).put("relaxed", relaxed);
  }

  public static AppliedFilters fromJson(JsonObject json) {
    List<MetadataCondition> conditions = new ArrayList<>();
    for (Object o : json.getJsonArray("conditions", new JsonArray())) {
      conditions.add(Filters.conditionFromJson((JsonObject) o));
    }
    List<InferredFilter> inferred = new ArrayList<>();
    for (Object o : json.getJsonArray("fromQuery", new JsonArray())) {
      JsonObject f = (JsonObject) o;
      boolean ns = "namespace".equals(f.getString("key"));
      inferred.add(new InferredFilter(f.getString("phrase"), ns ? f.getString("value") : null,
          ns ? null : Filters.conditionFromJson(f), f.getBoolean("applied", true)));
    }
    return new AppliedFilters(json.getString("namespace"), conditions, inferred, json.getBoolean("relaxed", false));
  }
}
