package dev.argus.agent.tools;

import io.vertx.core.json.JsonObject;

/** The outcome of one tool call, kept in the run: {@code index} is stable, so citations can point at it. */
public record EvidenceItem(int index, String tool, JsonObject params, boolean success, JsonObject data, String error,
                           long durationMs, int attempts) {

  public JsonObject toJson() {
    return new JsonObject().put("index", index).put("tool", tool).put("params", params).put("success", success)
        .put("data", data).put("error", error).put("durationMs", durationMs).put("attempts", attempts);
  }
}
