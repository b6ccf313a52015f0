package dev.argus.agent.api;

import dev.argus.config.AgentConf;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import dev.argus.runs.RunStore;
import dev.argus.http.SseStream;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/runs?limit=&before=&status=}: the newest runs (chat and decision), {@code {items, next?}}; a
 * namespace-limited key sees only the runs asked in its namespaces.
 * {@code GET /api/runs/{id}}: the whole run (phases, evidence, chain of thought, citations, verification, timings).
 * {@code GET /api/runs/{id}/events}: the run's events as SSE, live or finished, after {@code Last-Event-ID} (header)
 * or {@code ?lastEventId=}. A run a namespace-limited key may not see answers 404 as if absent
 * ({@link Caller#visibleRun}).
 */
public final class RunRoutes implements RouteGroup {

  private static final String ID = "[A-Za-z0-9._-]{1,100}";

  private final Vertx vertx;
  private final Bus bus;
  private final AgentConf conf;

  public RunRoutes(Vertx vertx, Bus bus, AgentConf conf) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/runs").respond(ctx -> bus.request(Addresses.AGENT_RUN_LIST, listRequest(ctx)));
    router.get("/api/runs/:id").respond(ctx -> {
      String runId = runId(ctx);
      return bus.request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", runId))
          .map(run -> Caller.of(ctx).visibleRun(runId, run));
    });
    router.get("/api/runs/:id/events").handler(this::events);
  }

  private static final java.util.Set<String> STATUSES = java.util.Set.of("running", "completed", "failed");

  static JsonObject listRequest(RoutingContext ctx) {
    JsonObject req = new JsonObject().put("limit", Requests.queryInt(ctx, "limit", 50, 1, RunStore.MAX_RECENT));
    String before = ctx.request().getParam("before");
    if (before != null && !before.isEmpty()) {
      try {
        long v = Long.parseLong(before);
        if (v < 0) {
          throw new NumberFormatException();
        }
        req.put("before", v);
      } catch (NumberFormatException e) {
        throw ApiException.badRequest("invalid_parameter", "query parameter 'before' must be a non-negative integer (ms)");
      }
    }
    String status = ctx.request().getParam("status");
    if (status != null && !status.isEmpty()) {
      if (!STATUSES.contains(status)) {
        throw ApiException.badRequest("invalid_parameter", "query parameter 'status' must be running, completed or failed");
      }
      req.put("status", status);
    }
    Caller caller = Caller.of(ctx);
    if (caller.limited()) {
      req.put("namespaces", caller.namespacesJson()); // a limited key lists only the runs of its namespaces
    }
    return req;
  }

  private static String runId(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (id == null || !id.matches(ID)) {
      throw ApiException.badRequest("invalid_run_id", "invalid run id");
    }
    return id;
  }

  static long lastEventId(RoutingContext ctx) {
    String raw = ctx.request().getHeader("Last-Event-ID");
    if (raw == null || raw.isBlank()) {
      raw = ctx.request().getParam("lastEventId");
    }
    if (raw == null || raw.isBlank()) {
      return 0;
    }
    try {
      long v = Long.parseLong(raw.trim());
      if (v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_last_event_id", "Last-Event-ID must be a non-negative integer");
    }
  }

  private void events(RoutingContext ctx) {
    String runId = runId(ctx);
    long after = lastEventId(ctx);
    Caller caller = Caller.of(ctx);
    if (caller.limited()) { // one read of the run first, to refuse what the key may not see before streaming
      bus.request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", runId))
          .map(run -> caller.visibleRun(runId, run))
          .onSuccess(run -> stream(ctx, runId, after))
          .onFailure(ctx::fail);
      return;
    }
    stream(ctx, runId, after);
  }

  private void stream(RoutingContext ctx, String runId, long after) {
    RunEventRelay relay = new RunEventRelay(vertx, bus, runId, conf.sseMaxBuffered());
    relay.subscribed().compose(v -> relay.fetch(after))
        .onSuccess(fetched -> {
          if (SseStream.endReconnect(ctx.request(), fetched.getBoolean("finished", false),
              fetched.getJsonArray("events").isEmpty())) {
            relay.cancel(); // a finished run the client has read to its end: 204 stops EventSource reconnecting
            return;
          }
          SseStream sse = SseStream.start(vertx, ctx.request(), conf.sseHeartbeatMs());
          sse.onClose(relay::cancel);
          relay.attach(new SseSink(sse), after, fetched);
        })
        .onFailure(err -> {
          relay.cancel();
          ctx.fail(err);
        });
  }
}
