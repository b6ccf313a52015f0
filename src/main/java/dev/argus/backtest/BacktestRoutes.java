package dev.argus.backtest;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.JobEventStream;
import dev.argus.http.RouteGroup;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/backtests} — a labelled world as JSON Lines ({@code application/jsonl} or
 * {@code application/x-ndjson}, options as query parameters {@code subjects, decisionTime, asOf, sample, load,
 * concurrency}) or JSON ({@code {generate: {sellers, seed}} | {text}} plus the same options) → 202 with the queued
 * job and {@code Location: /api/backtests/{id}}; {@code GET /api/backtests}; {@code GET /api/backtests/{id}} (with
 * the report once completed); {@code GET /api/backtests/{id}/events} (SSE: a {@code progress} snapshot, then
 * {@code progress} events and a last {@code done} with the report, each with an {@code id:});
 * {@code GET /api/backtests/{id}/decisions?offset=&limit=&pattern=&outcome=&fraud=} (every subject's verdict);
 * {@code POST /api/backtests/{id}/thresholds/adopt} ({@code {adoptedBy, profile?, version?}}) → 201 with the new
 * scoring version file. A world file path is never accepted over HTTP.
 */
public final class BacktestRoutes implements RouteGroup {

  static final List<String> JSONL = List.of("application/jsonl", "application/x-ndjson", "application/x-jsonl");
  static final List<String> OPTIONS = List.of("subjects", "decisionTime", "asOf", "sample", "load", "concurrency");
  static final long HEARTBEAT_MS = 15_000;

  private final Vertx vertx;
  private final Bus bus;

  public BacktestRoutes(Vertx vertx, Bus bus) {
    this.vertx = vertx;
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/backtests").handler(this::start);
    router.get("/api/backtests").respond(ctx -> bus.request(Addresses.BACKTEST_LIST, new JsonObject()));
    router.get("/api/backtests/:id").respond(ctx -> bus.request(Addresses.BACKTEST_GET,
        new JsonObject().put("backtestId", ctx.pathParam("id"))));
    router.get("/api/backtests/:id/events").handler(this::events);
    router.get("/api/backtests/:id/decisions").respond(ctx -> bus.request(Addresses.BACKTEST_DECISIONS,
        decisionsQuery(ctx)));
    router.post("/api/backtests/:id/thresholds/adopt").handler(this::adopt);
  }

  private void start(RoutingContext ctx) {
    String header = ctx.request().getHeader("Content-Type");
    String type = header == null ? "" : header.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    JsonObject request;
    try {
      if (ctx.body() == null || ctx.body().length() <= 0) { // -1: no body at all
        throw ApiException.badRequest("empty_world", "request body is empty; expected a labelled world (JSON Lines) "
            + "or JSON {generate: {sellers, seed}}");
      }
      if (JSONL.contains(type)) {
        request = new JsonObject().put("text", ctx.body().asString(StandardCharsets.UTF_8.name()));
        for (String p : OPTIONS) {
          String v = ctx.request().getParam(p);
          if (v != null && !v.isEmpty()) {
            request.put(p, typed(p, v));
          }
        }
      } else if ("application/json".equals(type)) {
        request = json(ctx);
        if (request.containsKey("worldFile")) {
          throw ApiException.badRequest("invalid_field", "field 'worldFile' is not accepted over HTTP; send the "
              + "world as the body (application/jsonl) or as 'text'");
        }
      } else {
        throw ApiException.unsupportedMedia("a backtest takes a labelled world as application/jsonl (or "
            + "application/x-ndjson) or JSON options as application/json" + (type.isEmpty() ? "" : ", got " + type));
      }
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    bus.request(Addresses.BACKTEST_START, request).onSuccess(job -> ctx.response().setStatusCode(202)
            .putHeader("Content-Type", "application/json")
            .putHeader("Location", "/api/backtests/" + job.getString("backtestId")).end(job.encode()))
        .onFailure(ctx::fail);
  }

  private static JsonObject decisionsQuery(RoutingContext ctx) {
    JsonObject q = new JsonObject().put("backtestId", ctx.pathParam("id"));
    for (String p : List.of("offset", "limit")) {
      String v = ctx.request().getParam(p);
      if (v != null && !v.isEmpty()) {
        q.put(p, integer(p, v));
      }
    }
    for (String p : List.of("pattern", "outcome")) {
      String v = ctx.request().getParam(p);
      if (v != null && !v.isEmpty()) {
        q.put(p, v);
      }
    }
    String fraud = ctx.request().getParam("fraud");
    if (fraud != null && !fraud.isEmpty()) {
      q.put("fraud", bool("fraud", fraud));
    }
    return q;
  }

  private static Object typed(String param, String v) {
    return switch (param) {
      case "sample", "concurrency" -> integer(param, v);
      case "load" -> bool(param, v);
      default -> v;
    };
  }

  private static long integer(String param, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "query parameter '" + param + "' must be an integer");
    }
  }

  private static boolean bool(String param, String v) {
    if (!v.equals("true") && !v.equals("false")) {
      throw ApiException.badRequest("invalid_parameter", "query parameter '" + param + "' must be true or false");
    }
    return Boolean.parseBoolean(v);
  }

  private static JsonObject json(RoutingContext ctx) {
    try {
      return new JsonObject(ctx.body().buffer());
    } catch (DecodeException | ClassCastException e) {
      throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
    }
  }

  private void adopt(RoutingContext ctx) {
    JsonObject body;
    try {
      body = ctx.body() == null || ctx.body().length() <= 0 ? new JsonObject() : json(ctx);
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    body.put("backtestId", ctx.pathParam("id"));
    bus.request(Addresses.BACKTEST_ADOPT, body).onSuccess(r -> ctx.response().setStatusCode(201)
        .putHeader("Content-Type", "application/json").end(r.encode())).onFailure(ctx::fail);
  }

  /** SSE of one backtest: subscribe first, then take its snapshot, then relay newer events until {@code done}. */
  private void events(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    JobEventStream.serve(vertx, ctx, HEARTBEAT_MS, Addresses.backtestEvents(id),
        () -> bus.request(Addresses.BACKTEST_GET, new JsonObject().put("backtestId", id)),
        job -> List.of("queued", "running").contains(job.getString("status")), job -> job);
  }
}
