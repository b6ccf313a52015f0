package dev.argus.retrieval;

import dev.argus.common.Fields;

import dev.argus.common.ApiException;
import dev.argus.config.RetrievalConf;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * A search: the body of {@code POST /api/search} and of {@link dev.argus.bus.Addresses#RETRIEVE_SEARCH}.
 * <pre>{@code {query, topK?, namespace?, filters?, retrievers?: ["vector","keyword","trigram"],
 *  fusion?: "rrf"|"weighted", expand?: "none"|"parent"|"neighbours", collapse?: "none"|"document",
 *  mmr?: boolean, selfQuery?: boolean, allowedNamespaces?: [names]}}</pre>
 * Built only through {@link #fromJson} (which validates every field) or the canonical constructor; the
 * namespace is checked against the store's namespaces when the search runs ({@code unknown_namespace}).
 * {@code allowedNamespaces} is the caller's namespace limit (document-level access control, enforced inside every
 * retriever); it is set by the HTTP route and the bridge from the caller's key, never taken from a client's body.
 */
public record SearchRequest(String query, int topK, String namespace, List<MetadataCondition> conditions,
                            List<Retriever> retrievers, FusionMode fusion, Expansion expand, Collapse collapse,
                            boolean mmr, boolean selfQuery, List<String> allowedNamespaces) {

  /** Namespaces are short names; longer ones cannot exist. */
  public static final int MAX_NAMESPACE_CHARS = 128;

  public SearchRequest {
    collapse = collapse == null ? Collapse.NONE : collapse;
    conditions = List.copyOf(conditions);
    retrievers = List.copyOf(retrievers);
    allowedNamespaces = allowedNamespaces == null ? null : List.copyOf(allowedNamespaces);
  }

  /** Every chunk kept (no collapse), without a namespace limit. */
  public SearchRequest(String query, int topK, String namespace, List<MetadataCondition> conditions,
                       List<Retriever> retrievers, FusionMode fusion, Expansion expand, boolean mmr,
                       boolean selfQuery) {
    this(query, topK, namespace, conditions, retrievers, fusion, expand, Collapse.NONE, mmr, selfQuery, null);
  }

  /** A hybrid search with the configured defaults (retrievers chosen by {@link TrigramPolicy}). */
  public static SearchRequest of(String query, RetrievalConf conf) {
    return new SearchRequest(query, conf.defaultTopK(), null, List.of(), TrigramPolicy.defaultRetrievers(query, conf),
        FusionMode.parse(conf.fusion()), Expansion.NONE, false, true);
  }

  /** Validates a request body; every problem is a 400 {@link ApiException} naming the field. */
  public static SearchRequest fromJson(JsonObject body, RetrievalConf conf, int maxQueryChars) {
    if (body == null) {
      throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
    }
    String query = Fields.requiredString(body, "query", maxQueryChars);
    Integer topK = Fields.optionalInt(body, "topK", 1, conf.maxTopK());
    String namespace = Fields.optionalString(body, "namespace", MAX_NAMESPACE_CHARS);
    if (namespace != null && namespace.isBlank()) {
      throw ApiException.badRequest("invalid_field", "field 'namespace' must not be empty");
    }
    JsonObject filters = Fields.optionalObject(body, "filters");
    if (filters != null && filters.containsKey("namespace")) {
      // Convenience: a namespace inside filters means the same as the top-level field.
      filters = filters.copy();
      Object ns = filters.remove("namespace");
      if (!(ns instanceof String s) || s.isBlank() || s.length() > MAX_NAMESPACE_CHARS) {
        throw ApiException.badRequest("invalid_filter", "filter 'namespace' must be a namespace name");
      }
      if (namespace != null && !namespace.equals(s)) {
        throw ApiException.badRequest("invalid_filter",
            "filter 'namespace' (" + s + ") contradicts field 'namespace' (" + namespace + ")");
      }
      namespace = s;
    }
    List<MetadataCondition> conditions = Filters.parse(filters);
    JsonArray named = Fields.optionalArray(body, "retrievers");
    List<Retriever> retrievers = named == null ? TrigramPolicy.defaultRetrievers(query, conf) : retrievers(named);
    FusionMode fusion = FusionMode.parse(enumField(body, "fusion", conf.fusion(), "rrf, weighted"));
    String expandName = enumField(body, "expand", "none", "none, parent, neighbours");
    Expansion expand = Expansion.parse(expandName);
    if (fusion == null) {
      throw ApiException.badRequest("invalid_field", "field 'fusion' must be one of rrf, weighted");
    }
    if (expand == null) {
      throw ApiException.badRequest("invalid_field", "field 'expand' must be one of none, parent, neighbours");
    }
    Collapse collapse = Collapse.parse(enumField(body, "collapse", "none", "none, document"));
    if (collapse == null) {
      throw ApiException.badRequest("invalid_field", "field 'collapse' must be one of none, document");
    }
    return new SearchRequest(query, topK == null ? conf.defaultTopK() : topK, namespace, conditions, retrievers,
        fusion, expand, collapse, bool(body, "mmr", false), bool(body, "selfQuery", true), allowed(body));
  }

  private static List<String> allowed(JsonObject body) {
    Object v = body.getValue("allowedNamespaces");
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonArray a) || a.size() > 1000
        || a.stream().anyMatch(o -> !(o instanceof String s) || s.length() > MAX_NAMESPACE_CHARS)) {
      throw ApiException.badRequest("invalid_field", "field 'allowedNamespaces' must be a list of namespace names");
    }
    return a.stream().map(String.class::cast).toList();
  }

  /** This request limited to the caller's namespaces ({@code null}: unlimited, the request unchanged). */
  public SearchRequest limitedTo(List<String> namespaces) {
    return namespaces == null ? this : new SearchRequest(query, topK, namespace, conditions, retrievers, fusion,
        expand, collapse, mmr, selfQuery, namespaces);
  }

  private static List<Retriever> retrievers(JsonArray array) {
    if (array.isEmpty()) {
      throw ApiException.badRequest("invalid_field", "field 'retrievers' must name at least one of vector, keyword, trigram");
    }
    EnumSet<Retriever> set = EnumSet.noneOf(Retriever.class);
    for (Object o : array) {
      Retriever r = o instanceof String s ? Retriever.parse(s) : null;
      if (r == null) {
        throw ApiException.badRequest("invalid_field",
            "field 'retrievers' may only contain vector, keyword, trigram; got " + o);
      }
      set.add(r);
    }
    return new ArrayList<>(set);
  }

  private static String enumField(JsonObject body, String field, String def, String allowed) {
    Object v = body.getValue(field);
    if (v == null) {
      return def;
    }
    if (!(v instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be one of " + allowed);
    }
    return s;
  }

  private static boolean bool(JsonObject body, String field, boolean def) {
    Object v = body.getValue(field);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Boolean b)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be true or false");
    }
    return b;
  }

  /** The canonical JSON of this request (parses back to an equal request). */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("query", query).put("topK", topK);
    if (namespace != null) {
      json.put("namespace", namespace);
    }
    if (!conditions.isEmpty()) {
      json.put("filters", Filters.toFiltersObject(conditions));
    }
    JsonArray names = new JsonArray();
    retrievers.forEach(r -> names.add(r.wireName()));
    json.put("retrievers", names).put("fusion", fusion.wireName()).put("expand", expand.wireName())
        .put("collapse", collapse.wireName()).put("mmr", mmr).put("selfQuery", selfQuery);
    if (allowedNamespaces != null) {
      json.put("allowedNamespaces", new JsonArray(allowedNamespaces));
    }
    return json;
  }

  /** The explicit filter of this request (before self-query). */
  public SearchFilter filter() {
    return new SearchFilter(namespace, conditions, allowedSet());
  }

  /** The namespace limit as a set ({@code null}: unlimited). */
  public java.util.Set<String> allowedSet() {
    return allowedNamespaces == null ? null : java.util.Set.copyOf(allowedNamespaces);
  }

  /** True when exactly one retriever runs: its ranking is returned unchanged (no fusion). */
  public boolean singleMode() {
    return retrievers.size() == 1;
  }

  public SearchRequest withQuery(String newQuery) {
    return new SearchRequest(newQuery, topK, namespace, conditions, retrievers, fusion, expand, collapse, mmr,
        selfQuery, allowedNamespaces);
  }
}
