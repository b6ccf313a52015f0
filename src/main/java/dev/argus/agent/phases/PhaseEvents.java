package dev.argus.agent.phases;

import dev.argus.bus.Addresses;
import dev.argus.runs.RunEvent;
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

  /** {@code type}: one of {@link RunEvent}'s constants. */
  public void emit(String type, JsonObject data) {
    vertx.eventBus().send(Addresses.AGENT_RUN_EMIT, new PhaseEvent(runId, type, data).toJson());
  }

  public void log(Phase phase, String message, boolean fallback) {
    emit(RunEvent.AGENT_LOG, new JsonObject().put("phase", phase.wire()).put("message", message).put("fallback", fallback));
  }
}
