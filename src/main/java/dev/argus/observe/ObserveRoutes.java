package dev.argus.observe;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import dev.argus.http.Readiness;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/runs/{id}/trace} (the run's stored trace; 404 when the run has none) and {@code GET
 * /api/health/deep}: readiness, every capability verticle probed over the bus ({@link VerticleProbes}), the
 * knowledge store's consistency check, per-agent (phase) and per-tool health, breaker states, tracing and retention.
 * 200 with {@code status: "ok"} when everything holds, 503 with {@code status: "degraded"} (or {@code starting})
 * naming what does not.
 */
public final class ObserveRoutes implements RouteGroup {

  private static final String RUN_ID = "[A-Za-z0-9._-]{1,100}";

  private final Bus bus;
  private final Readiness readiness;
  private final VerticleProbes probes;

  public ObserveRoutes(Bus bus, Readiness readiness, VerticleProbes probes) {
    this.bus = bus;
    this.readiness = readiness;
    this.probes = probes;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/runs/:id/trace").respond(this::trace);
    router.get("/api/health/deep").respond(this::deep);
  }

  private Future<JsonObject> trace(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (id == null || !id.matches(RUN_ID)) {
      throw ApiException.badRequest("invalid_run_id", "invalid run id");
    }
    Caller caller = Caller.of(ctx);
    if (caller.limited()) { // the trace of a run the key may not see is as absent as the run
      return bus.request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", id))
          .map(run -> caller.visibleRun(id, run))
          .compose(run -> bus.request(Addresses.OBSERVE_TRACE_GET, new JsonObject().put("runId", id)));
    }
    return bus.request(Addresses.OBSERVE_TRACE_GET, new JsonObject().put("runId", id));
  }

  private Future<JsonObject> deep(RoutingContext ctx) {
    Future<JsonObject> verticles = probes.probeAll();
    Future<JsonObject> consistency = bus.request(Addresses.KNOWLEDGE_CONSISTENCY, new JsonObject(), 10_000)
        .otherwise(err -> new JsonObject().put("ok", false).put("error", ApiException.class.isInstance(err)
            ? err.getMessage() : String.valueOf(err.getMessage())));
    Future<JsonObject> agents = bus.request(Addresses.OBSERVE_HEALTH, new JsonObject(), 5_000)
        .otherwise(err -> new JsonObject().put("error", String.valueOf(err.getMessage())));
    return Future.join(verticles, consistency, agents).transform(ar -> {
      boolean ready = readiness.ready();
      boolean verticlesUp = verticles.result().getBoolean("ok", false);
      boolean consistent = consistency.result().getBoolean("ok", false);
      boolean ok = ready && verticlesUp && consistent;
      JsonObject out = new JsonObject()
          .put("status", ok ? "ok" : ready ? "degraded" : "starting")
          .put("ready", ready)
          .put("waitingFor", new io.vertx.core.json.JsonArray(readiness.pending()))
          .put("verticles", verticles.result().getJsonArray("verticles"))
          .put("consistency", consistency.result());
      agents.result().forEach(e -> out.put(e.getKey(), e.getValue()));
      if (!ok) {
        ctx.response().setStatusCode(503);
      }
      return Future.succeededFuture(out);
    });
  }
}
