package dev.argus.retrieval;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The reply to a search: {@code {query, cleanedQuery, results: [...], timings: {...}, filters: {namespace,
 * conditions, fromQuery}, cached}}. {@code cleanedQuery} is what the retrievers searched for (the query without
 * the self-query's filter phrases); {@code cached} is true when the response came from the retrieval cache.
 */
public record SearchResponse(String query, String cleanedQuery, List<SearchResult> results, Timings timings,
                             AppliedFilters filters, boolean cached) {

  public SearchResponse {
    results = List.copyOf(results);
  }

  public SearchResponse asCached() {
    return new SearchResponse(query, cleanedQuery, results, timings, filters, true);
  }

  public JsonObject toJson() {
    JsonArray array = new JsonArray();
    results.forEach(r -> array.add(r.toJson()));
    return new JsonObject().put("query", query).put("cleanedQuery", cleanedQuery).put("results", array)
        .put("timings", timings.toJson()).put("filters", filters.toJson()).put("cached", cached);
  }

  public static SearchResponse fromJson(JsonObject json) {
    List<SearchResult> results = new ArrayList<>();
    for (Object o : json.getJsonArray("results", new JsonArray())) {
      results.add(SearchResult.fromJson((JsonObject) o));
    }
    return new SearchResponse(json.getString("query"), json.getString("cleanedQuery"), results,
        Timings.fromJson(json.getJsonObject("timings", new JsonObject())),
        AppliedFilters.fromJson(json.getJsonObject("filters", new JsonObject())), json.getBoolean("cached", false));
  }
}
