package dev.argus.agent.phases;

import io.vertx.core.json.JsonObject;

/** An event a phase reports for its run ({@code argus.agent.run.emit}); the coordinator numbers and publishes it. */
public record PhaseEvent(String runId, String type, JsonObject data) {

  public PhaseEvent {
    data = data == null ? new JsonObject() : data;
  }

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("type", type).put("data", data);
  }

  public static PhaseEvent fromJson(JsonObject json) {
    return new PhaseEvent(json.getString("runId"), json.getString("type"), json.getJsonObject("data"));
  }
}
