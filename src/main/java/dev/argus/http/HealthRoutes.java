package dev.argus.http;

import dev.argus.bus.Addresses;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/** {@code GET /api/health}: store, counts, embedder model and readiness. */
final class HealthRoutes implements RouteGroup {

  private final Bus bus;

  HealthRoutes(Bus bus) {
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/health").respond(ctx -> bus.request(Addresses.KNOWLEDGE_STATS, new JsonObject())
        .map(stats -> new JsonObject().put("status", "ready").put("store", stats))
        .otherwise(err -> {
          ctx.response().setStatusCode(503);
          return new JsonObject().put("status", "unavailable").put("error", err.getMessage());
        }));
  }
}
