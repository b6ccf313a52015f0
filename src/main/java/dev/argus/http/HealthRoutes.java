package dev.argus.http;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * Health: {@code GET /api/health/live} (liveness: the process answers HTTP; always 200), {@code GET
 * /api/health/ready} (readiness: 200 once the start-up tasks of {@link Readiness} finished and the store answers,
 * 503 before) and {@code GET /api/health} (the details: readiness, the store's type, counts, embedder model and
 * dimension, and the LLM provider's status; 503 only when the store does not answer). The LLM part is informative
 * only, since Argus works without an LLM.
 */
final class HealthRoutes implements RouteGroup {

  private final Bus bus;
  private final Readiness readiness;

  HealthRoutes(Bus bus, Readiness readiness) {
    this.bus = bus;
    this.readiness = readiness;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/health/live").respond(ctx -> Future.succeededFuture(new JsonObject().put("status", "live")));
    router.get("/api/health/ready").respond(ctx -> store().map(stats -> {
      if (readiness.ready()) {
        return new JsonObject().put("status", "ready");
      }
      ctx.response().setStatusCode(503);
      return starting();
    }).otherwise(err -> {
      ctx.response().setStatusCode(503);
      return unavailable(err);
    }));
    router.get("/api/health").respond(ctx -> {
      Future<JsonObject> store = store();
      Future<JsonObject> llm = bus.request(Addresses.LLM_STATUS, new JsonObject(), 5_000)
          .otherwise(err -> new JsonObject().put("enabled", false).put("error", err.getMessage()));
      return Future.join(store, llm).map(v -> (readiness.ready() ? new JsonObject().put("status", "ready")
              : starting()).put("ready", readiness.ready()).put("store", store.result()).put("llm", llm.result()))
          .otherwise(err -> {
            ctx.response().setStatusCode(503);
            return unavailable(store.cause() == null ? err : store.cause()).put("ready", false);
          });
    });
  }

  private Future<JsonObject> store() {
    return bus.request(Addresses.KNOWLEDGE_STATS, new JsonObject(), 5_000);
  }

  private JsonObject starting() {
    return new JsonObject().put("status", "starting").put("waitingFor", new JsonArray(readiness.pending()))
        .put("error", "Argus is starting: waiting for " + String.join(", ", readiness.pending()))
        .put("code", "not_ready");
  }

  private static JsonObject unavailable(Throwable err) {
    return new JsonObject().put("status", "unavailable").put("error", err.getMessage()).put("code", "unavailable");
  }
}
