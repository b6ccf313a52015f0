package dev.argus.adversarial;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.JobEventStream;
import dev.argus.http.RouteGroup;
import dev.argus.http.Requests;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;


/**
 * {@code POST /api/adversarial/runs} ({@code {suite: "all" | [type...], size?}}) → 202 with the run
 * ({@code executionId}, {@code status: running}) and {@code Location: /api/adversarial/runs/{id}};
 * {@code GET /api/adversarial/runs?limit=}; {@code GET /api/adversarial/runs/{id}} (progress while running, the
 * persisted report once completed); {@code GET /api/adversarial/runs/{id}/events} (SSE: a {@code progress} snapshot,
 * then {@code progress} events and a last {@code done}, each with an {@code id:}). Starting a run needs the admin
 * permission (the route default): it loads a synthetic world into the records store.
 */
public final class AdversarialRoutes implements RouteGroup {

  static final int MAX_BODY_BYTES = 4096;
  static final long HEARTBEAT_MS = 15_000;

  private final Vertx vertx;
  private final Bus bus;

  public AdversarialRoutes(Vertx vertx, Bus bus) {
    this.vertx = vertx;
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/adversarial/runs").handler(this::start);
    router.get("/api/adversarial/runs").respond(ctx -> bus.request(Addresses.ADVERSARIAL_LIST,
        new JsonObject().put("limit", Requests.queryInt(ctx, "limit", 50, 1, 500))));
    router.get("/api/adversarial/runs/:id").respond(ctx -> bus.request(Addresses.ADVERSARIAL_GET,
        new JsonObject().put("executionId", ctx.pathParam("id"))));
    router.get("/api/adversarial/runs/:id/events").handler(this::events);
  }

  private void start(RoutingContext ctx) {
    JsonObject body;
    try {
      if (ctx.body() != null && ctx.body().length() > MAX_BODY_BYTES) {
        throw ApiException.tooLarge("an adversarial run request may hold at most " + MAX_BODY_BYTES + " bytes");
      }
      body = Requests.jsonObject(ctx);
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    bus.request(Addresses.ADVERSARIAL_START, body).onSuccess(run -> ctx.response().setStatusCode(202)
            .putHeader("Content-Type", "application/json")
            .putHeader("Location", "/api/adversarial/runs/" + run.getString("executionId")).end(run.encode()))
        .onFailure(ctx::fail);
  }

  /** SSE of one run: subscribe first, then take its snapshot, then relay newer events until {@code done}. */
  private void events(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    JobEventStream.serve(vertx, ctx, HEARTBEAT_MS, Addresses.adversarialEvents(id),
        () -> bus.request(Addresses.ADVERSARIAL_GET, new JsonObject().put("executionId", id)),
        run -> "running".equals(run.getString("status")), run -> run);
  }
}
