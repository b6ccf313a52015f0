package dev.argus.http;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * {@code GET /api/health}: readiness, the store (type, counts, embedder model and dimension) and the LLM
 * provider's status. The store is required (503 without it); the LLM part is informative only, since Argus
 * works without an LLM.
 */
final class HealthRoutes implements RouteGroup {

  private final Bus bus;

  HealthRoutes(Bus bus) {
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/health").respond(ctx -> {
      Future<JsonObject> store = bus.request(Addresses.KNOWLEDGE_STATS, new JsonObject(), 5_000);
      Future<JsonObject> llm = bus.request(Addresses.LLM_STATUS, new JsonObject(), 5_000)
          .otherwise(err -> new JsonObject().put("enabled", false).put("error", err.getMessage()));
      return Future.join(store, llm).map(v -> new JsonObject().put("status", "ready")
              .put("store", store.result()).put("llm", llm.result()))
          .otherwise(err -> {
            ctx.response().setStatusCode(503);
            return new JsonObject().put("status", "unavailable").put("error", store.cause() == null
                ? err.getMessage() : store.cause().getMessage());
          });
    });
  }
}
