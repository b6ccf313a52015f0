package dev.argus.eval.online;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.eval.golden.GoldenSet;
import dev.argus.eval.score.Metric;
import dev.argus.http.Bus;
import dev.argus.http.RouteGroup;
import dev.argus.http.Requests;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The evaluation API: {@code GET /api/eval/runs/{id}}, {@code /api/eval/history}, {@code /api/eval/trend},
 * {@code /api/eval/regressions}, {@code /api/eval/stats}, {@code POST /api/eval/aggregate}, and the golden sets under
 * {@code /api/eval/sets} (list, get, put, delete, run, results). Parameters are checked here (4xx {@code {error, code}});
 * the work happens on {@code argus.eval.*}.
 */
public final class EvalApiRoutes implements RouteGroup {

  static final int MAX_PROFILE = 64;
  static final int MAX_ID = 200;

  private final Bus bus;

  public EvalApiRoutes(Bus bus) {
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/eval/runs/:id").respond(ctx -> bus.request(Addresses.EVAL_RUN_GET,
        new JsonObject().put("runId", id(ctx.pathParam("id"), "id"))));
    router.get("/api/eval/history").respond(ctx -> bus.request(Addresses.EVAL_HISTORY, history(ctx)));
    router.get("/api/eval/trend").respond(ctx -> {
      JsonObject req = filters(ctx);
      if (ctx.request().getParam("hours") != null) {
        req.put("hours", Requests.queryInt(ctx, "hours", 168, 1, 24 * 365));
      }
      return bus.request(Addresses.EVAL_TREND, req);
    });
    router.get("/api/eval/regressions").respond(ctx -> bus.request(Addresses.EVAL_REGRESSIONS, range(ctx)
        .put("limit", Requests.queryInt(ctx, "limit", 100, 1, 1000))));
    router.get("/api/eval/stats").respond(ctx -> bus.request(Addresses.EVAL_STATS, new JsonObject()));
    router.post("/api/eval/aggregate").respond(ctx -> bus.request(Addresses.EVAL_AGGREGATE, new JsonObject()));
    router.get("/api/eval/sets").respond(ctx -> bus.request(Addresses.EVAL_SETS_LIST, new JsonObject()));
    router.get("/api/eval/sets/:name").respond(ctx -> bus.request(Addresses.EVAL_SET_GET, name(ctx)));
    router.put("/api/eval/sets/:name").respond(this::put);
    router.delete("/api/eval/sets/:name").respond(ctx -> bus.request(Addresses.EVAL_SET_DELETE, name(ctx)));
    router.post("/api/eval/sets/:name/runs").handler(this::run);
    router.get("/api/eval/sets/:name/results").respond(ctx -> bus.request(Addresses.EVAL_SET_RESULTS, name(ctx)
        .put("limit", Requests.queryInt(ctx, "limit", 20, 1, 200))));
    router.get("/api/eval/sets/:name/results/:resultId").respond(ctx -> bus.request(Addresses.EVAL_SET_RESULTS,
        new JsonObject().put("resultId", id(ctx.pathParam("resultId"), "resultId"))));
  }

  private Future<JsonObject> put(RoutingContext ctx) {
    JsonObject body = Requests.jsonObject(ctx);
    String name = name(ctx).getString("name");
    Object inBody = body.getValue("name");
    if (inBody != null && !name.equals(inBody)) {
      throw ApiException.badRequest("name_mismatch", "the body's name differs from the path's");
    }
    // validated here (4xx before anything is stored) and again by the owner
    GoldenSet set = GoldenSet.fromJson(body.copy().put("name", name), Integer.MAX_VALUE);
    return bus.request(Addresses.EVAL_SET_PUT, set.toJson());
  }

  private void run(RoutingContext ctx) {
    JsonObject req;
    try {
      req = name(ctx);
      JsonObject body = ctx.body().buffer() == null || ctx.body().buffer().length() == 0 ? new JsonObject()
          : Requests.jsonObject(ctx);
      Object baseline = body.getValue("baseline");
      if (baseline != null) {
        if (!(baseline instanceof String b)) {
          throw ApiException.badRequest("invalid_field", "field 'baseline' must be a result id");
        }
        req.put("baseline", id(b, "baseline"));
      }
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    bus.request(Addresses.EVAL_SET_RUN, req).onSuccess(result -> ctx.response().setStatusCode(202)
            .putHeader("Content-Type", "application/json")
            .putHeader("Location", "/api/eval/sets/" + req.getString("name") + "/results/" + result.getString("resultId"))
            .end(result.encode()))
        .onFailure(ctx::fail);
  }

  private static JsonObject name(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    GoldenSet.checkName(name);
    return new JsonObject().put("name", name);
  }

  private static String id(String id, String what) {
    if (id == null || id.isEmpty() || id.length() > MAX_ID) {
      throw ApiException.badRequest("invalid_parameter", "'" + what + "' must be 1 to " + MAX_ID + " characters");
    }
    return id;
  }

  private static JsonObject history(RoutingContext ctx) {
    return filters(ctx).mergeIn(range(ctx)).put("limit", Requests.queryInt(ctx, "limit", 1000, 1, 10_000));
  }

  private static JsonObject filters(RoutingContext ctx) {
    JsonObject out = new JsonObject();
    String metric = ctx.request().getParam("metric");
    if (metric != null && !metric.isEmpty()) {
      Metric m = Metric.fromWire(metric);
      if (m == null) {
        throw ApiException.badRequest("invalid_parameter", "unknown metric '" + truncate(metric) + "'");
      }
      out.put("metric", m.wire());
    }
    String profile = ctx.request().getParam("profile");
    if (profile != null && !profile.isEmpty()) {
      if (profile.length() > MAX_PROFILE) {
        throw ApiException.badRequest("invalid_parameter", "'profile' is longer than " + MAX_PROFILE + " characters");
      }
      out.put("profile", profile);
    }
    return out;
  }

  private static JsonObject range(RoutingContext ctx) {
    JsonObject out = new JsonObject();
    String profile = ctx.request().getParam("profile");
    if (profile != null && !profile.isEmpty()) {
      out.put("profile", filters(ctx).getString("profile"));
    }
    Long from = instant(ctx, "from");
    Long to = instant(ctx, "to");
    if (from != null && to != null && from >= to) {
      throw ApiException.badRequest("invalid_parameter", "'from' must be before 'to'");
    }
    if (from != null) {
      out.put("from", from);
    }
    if (to != null) {
      out.put("to", to);
    }
    return out;
  }

  /** An ISO-8601 instant or epoch milliseconds. */
  private static Long instant(RoutingContext ctx, String name) {
    String raw = ctx.request().getParam(name);
    if (raw == null || raw.isEmpty()) {
      return null;
    }
    if (raw.length() > 40) {
      throw ApiException.badRequest("invalid_parameter", "'" + name + "' is too long");
    }
    try {
      return raw.matches("\\d{1,15}") ? Long.parseLong(raw) : Instant.parse(raw).toEpochMilli();
    } catch (DateTimeParseException | NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "'" + name + "' must be an ISO-8601 instant or epoch milliseconds");
    }
  }

  private static String truncate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
