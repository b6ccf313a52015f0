package dev.argus.eval;

import dev.argus.common.Fields;

import dev.argus.common.ApiException;
import dev.argus.http.RouteGroup;
import dev.argus.http.Requests;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/eval/retrieval}: retrieval metrics for rankings the caller already has.
 *
 * <p>Body {@code {k?: int (default 10), queries: [{id?, retrieved: [ids...], relevant: {id: grade} | [ids]}]}};
 * reply {@code {k, count, mean: {hitRate@k, mrr@k, ndcg@k, recall@k, precision@k}, queries: [{id, ...same}]}}.
 * The metrics are pure, bounded CPU work (limits below), so they run in the handler without a bus hop.
 */
public final class EvalRoutes implements RouteGroup {

  static final int MAX_QUERIES = 10_000;
  static final int MAX_IDS = 1_000;
  static final int MAX_ID_CHARS = 512;

  @Override
  public void mount(Router router) {
    router.post("/api/eval/retrieval").respond(ctx -> io.vertx.core.Future.succeededFuture(evaluate(ctx)));
  }

  private static JsonObject evaluate(RoutingContext ctx) {
    JsonObject body = Requests.jsonObject(ctx);
    Integer kParam = Fields.optionalInt(body, "k", 1, MAX_IDS);
    int k = kParam == null ? 10 : kParam;
    JsonArray queries = Fields.optionalArray(body, "queries");
    if (queries == null) {
      throw ApiException.badRequest("missing_field", "field 'queries' is required");
    }
    if (queries.isEmpty()) {
      throw ApiException.badRequest("empty_field", "field 'queries' must not be empty");
    }
    if (queries.size() > MAX_QUERIES) {
      throw ApiException.badRequest("too_many_queries", "at most " + MAX_QUERIES + " queries per request");
    }
    List<QueryScores> scores = new ArrayList<>(queries.size());
    JsonArray perQuery = new JsonArray();
    for (int i = 0; i < queries.size(); i++) {
      String where = "queries[" + i + "]";
      if (!(queries.getValue(i) instanceof JsonObject q)) {
        throw ApiException.badRequest("invalid_field", where + " must be a JSON object");
      }
      List<String> retrieved = ids(q.getValue("retrieved"), where + ".retrieved");
      Map<String, Integer> relevant = grades(q.getValue("relevant"), where + ".relevant");
      QueryScores s = QueryScores.of(retrieved, relevant, k);
      scores.add(s);
      Object id = q.getValue("id");
      perQuery.add(s.toJson().put("id", id instanceof String || id instanceof Number ? id.toString() : String.valueOf(i)));
    }
    return new JsonObject().put("k", k).put("count", scores.size())
        .put("mean", QueryScores.mean(scores, k).toJson()).put("queries", perQuery);
  }

  private static List<String> ids(Object value, String where) {
    if (value == null) {
      throw ApiException.badRequest("missing_field", "field '" + where + "' is required");
    }
    if (!(value instanceof JsonArray arr)) {
      throw ApiException.badRequest("invalid_field", "field '" + where + "' must be an array of ids");
    }
    if (arr.size() > MAX_IDS) {
      throw ApiException.badRequest("too_many_ids", "field '" + where + "' holds more than " + MAX_IDS + " ids");
    }
    List<String> out = new ArrayList<>(arr.size());
    for (Object o : arr) {
      out.add(id(o, where));
    }
    return out;
  }

  private static Map<String, Integer> grades(Object value, String where) {
    if (value == null) {
      throw ApiException.badRequest("missing_field", "field '" + where + "' is required");
    }
    Map<String, Integer> out = new LinkedHashMap<>();
    if (value instanceof JsonArray arr) {
      for (String id : ids(arr, where)) {
        out.put(id, 1);
      }
      return out;
    }
    if (!(value instanceof JsonObject obj)) {
      throw ApiException.badRequest("invalid_field",
          "field '" + where + "' must be an array of ids or an object {id: grade}");
    }
    if (obj.size() > MAX_IDS) {
      throw ApiException.badRequest("too_many_ids", "field '" + where + "' holds more than " + MAX_IDS + " ids");
    }
    for (Map.Entry<String, Object> e : obj) {
      String id = id(e.getKey(), where);
      if (!(e.getValue() instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
          || n.doubleValue() < 0 || n.doubleValue() > 1000) {
        throw ApiException.badRequest("invalid_field",
            "grade of '" + id + "' in '" + where + "' must be an integer between 0 and 1000");
      }
      out.put(id, n.intValue());
    }
    return out;
  }

  private static String id(Object o, String where) {
    if (o instanceof Number n) {
      return n.toString();
    }
    if (!(o instanceof String s) || s.isEmpty()) {
      throw ApiException.badRequest("invalid_field", "ids in '" + where + "' must be non-empty strings");
    }
    if (s.length() > MAX_ID_CHARS) {
      throw ApiException.badRequest("field_too_long", "an id in '" + where + "' is longer than " + MAX_ID_CHARS
          + " characters");
    }
    return s;
  }
}
