package dev.argus.agent.phases;

import dev.argus.bus.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** How a phase reports progress: events go to the coordinator, which numbers, logs and publishes them in order. */
public final class PhaseEvents {

  private final Vertx vertx;
  private final String runId;

  public PhaseEvents(Vertx vertx, String runId) {
    this.vertx = vertx;
    this.runId = runId;
  }

  public void emit(String type, JsonObject data) {
    vertx.eventBus().send(Addresses.AGENT_RUN_EMIT, new JsonObject().put("runId", runId).put("type", type).put("data", data));
  }

  public void log(String phase, String message, boolean fallback) {
    emit("agent_log", new JsonObject().put("phase", phase).put("message", message).put("fallback", fallback));
  }
}
