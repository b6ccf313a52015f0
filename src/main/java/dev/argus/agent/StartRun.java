package dev.argus.agent;

import io.vertx.core.json.JsonObject;

/** The request to start a run ({@code argus.agent.run.start}); {@code runId} may be chosen by the caller. */
public record StartRun(String runId, String question, String namespace, JsonObject filters, String profile,
                       String sessionId) {

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("question", question).put("namespace", namespace)
        .put("filters", filters).put("profile", profile).put("sessionId", sessionId);
  }

  public static StartRun fromJson(JsonObject j) {
    return new StartRun(j.getString("runId"), j.getString("question"), j.getString("namespace"),
        j.getJsonObject("filters"), j.getString("profile"), j.getString("sessionId"));
  }
}
