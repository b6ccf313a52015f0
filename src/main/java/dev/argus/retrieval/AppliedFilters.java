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
 */
public record AppliedFilters(String namespace, List<MetadataCondition> conditions, List<InferredFilter> fromQuery) {

  public AppliedFilters {
    conditions = List.copyOf(conditions);
    fromQuery = List.copyOf(fromQuery);
  }

  public SearchFilter toSearchFilter() {
    return new SearchFilter(namespace, conditions);
  }

  public JsonObject toJson() {
    JsonArray inferred = new JsonArray();
    fromQuery.forEach(f -> inferred.add(f.toJson()));
    return new JsonObject().put("namespace", namespace).put("conditions", Filters.toJson(conditions))
        .put("fromQuery", inferred);
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
    return new AppliedFilters(json.getString("namespace"), conditions, inferred);
  }
}
