package dev.argus.records;

import dev.argus.http.Permission;
import io.vertx.core.http.HttpMethod;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.RecordsConf;
import dev.argus.http.Bus;
import dev.argus.http.JobEventStream;
import dev.argus.http.RouteGroup;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/records} (JSON Lines as {@code application/jsonl} or {@code application/x-ndjson}; small bodies or
 * {@code ?wait=true} answer 201 with the finished job, larger ones 202 with the queued job and its {@code Location}),
 * {@code GET /api/records/jobs/{id}}, {@code GET /api/records/jobs/{id}/events} (SSE: a {@code progress} snapshot, then
 * {@code errors} and {@code progress} per batch, and a last {@code done}, each with an {@code id:}),
 * {@code GET /api/records/{id}?asOf=}, {@code GET /api/records?kind=&sellerId=&buyerId=&subjectId=&from=&to=&asOf=
 * &offset=&limit=} and {@code DELETE /api/records/{id}}. The body size limit is {@code http.maxBodyBytes} (413).
 */
public final class RecordRoutes implements RouteGroup {

  static final List<String> MEDIA_TYPES = List.of("application/jsonl", "application/x-ndjson", "application/x-jsonl");
  static final long WAIT_TIMEOUT_MS = 30 * 60 * 1000L;
  static final long HEARTBEAT_MS = 15_000;

  private final Vertx vertx;
  private final Bus bus;
  private final RecordsConf conf;

  public RecordRoutes(Vertx vertx, Bus bus, RecordsConf conf) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
  }

  /** Reads need {@code read}; writes need {@code ingest}. */
  @Override
  public Permission permission(HttpMethod method) {
    return Permission.defaultFor(method) == Permission.READ ? Permission.READ : Permission.INGEST;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/records").handler(this::load);
    router.get("/api/records/jobs/:id").respond(ctx -> bus.request(Addresses.RECORDS_JOB_STATUS,
        new JsonObject().put("jobId", ctx.pathParam("id"))));
    router.get("/api/records/jobs/:id/events").handler(this::events);
    router.get("/api/records").respond(ctx -> bus.request(Addresses.RECORDS_QUERY, query(ctx)));
    router.get("/api/records/:id").respond(ctx -> bus.request(Addresses.RECORDS_GET,
        new JsonObject().put("id", ctx.pathParam("id")).put("asOf", ctx.request().getParam("asOf"))));
    router.delete("/api/records/:id").respond(ctx -> bus.request(Addresses.RECORDS_DELETE,
        new JsonObject().put("id", ctx.pathParam("id"))));
  }

  private void load(RoutingContext ctx) {
    String header = ctx.request().getHeader("Content-Type");
    String type = header == null ? "" : header.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (!MEDIA_TYPES.contains(type)) {
      ctx.fail(ApiException.unsupportedMedia("records are JSON Lines: use Content-Type application/jsonl or "
          + "application/x-ndjson" + (type.isEmpty() ? "" : ", got " + type)));
      return;
    }
    String wait = ctx.request().getParam("wait");
    if (wait != null && !wait.equals("true") && !wait.equals("false")) {
      ctx.fail(ApiException.badRequest("invalid_parameter", "query parameter 'wait' must be true or false"));
      return;
    }
    if (ctx.body() == null || ctx.body().length() == 0) {
      ctx.fail(ApiException.badRequest("empty_batch", "request body is empty; expected JSON Lines"));
      return;
    }
    boolean sync = "true".equals(wait) || ctx.body().length() < conf.asyncThresholdBytes();
    JsonObject request = new JsonObject().put("text", ctx.body().asString(StandardCharsets.UTF_8.name()))
        .put("wait", sync);
    bus.request(Addresses.RECORDS_LOAD, request, sync ? WAIT_TIMEOUT_MS : 30_000).onSuccess(job ->
        ctx.response().setStatusCode(sync ? 201 : 202).putHeader("Content-Type", "application/json")
            .putHeader("Location", "/api/records/jobs/" + job.getString("jobId")).end(job.encode()))
        .onFailure(ctx::fail);
  }

  private static JsonObject query(RoutingContext ctx) {
    JsonObject q = new JsonObject();
    String kinds = ctx.request().getParam("kind");
    if (kinds != null && !kinds.isBlank()) {
      JsonArray list = new JsonArray();
      for (String k : kinds.split(",")) {
        list.add(k.strip());
      }
      q.put("kinds", list);
    }
    for (String p : List.of("sellerId", "buyerId", "subjectId", "from", "to", "asOf")) {
      String v = ctx.request().getParam(p);
      if (v != null && !v.isEmpty()) {
        q.put(p, v);
      }
    }
    for (String p : List.of("offset", "limit")) {
      String v = ctx.request().getParam(p);
      if (v != null && !v.isEmpty()) {
        try {
          q.put(p, Long.parseLong(v));
        } catch (NumberFormatException e) {
          throw ApiException.badRequest("invalid_parameter", "query parameter '" + p + "' must be an integer");
        }
      }
    }
    return q;
  }

  /** SSE of one job: subscribe first, then take the job's snapshot, then relay newer events until {@code done}. */
  private void events(RoutingContext ctx) {
    String jobId = ctx.pathParam("id");
    JobEventStream.serve(vertx, ctx, HEARTBEAT_MS, Addresses.recordJobEvents(jobId),
        () -> bus.request(Addresses.RECORDS_JOB_STATUS, new JsonObject().put("jobId", jobId)),
        job -> List.of("queued", "running").contains(job.getString("status")), job -> {
          JsonObject snapshot = job.copy();
          snapshot.remove("errors"); // the first progress event is the counts; errors come as their own events
          return snapshot;
        });
  }
}
