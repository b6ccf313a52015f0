package dev.argus.agent;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The request to start a run ({@code argus.agent.run.start}); {@code runId} may be chosen by the caller.
 * {@code history}: earlier turns of the conversation ({@code {question, answer?}}, oldest first) sent by a client that
 * keeps its own (the OpenAI-compatible API); {@code null} otherwise, when a {@code sessionId} names a stored
 * conversation. {@code stripMarkup}: {@code null} for the configured default.
 */
public record StartRun(String runId, String question, String namespace, JsonObject filters, String profile,
                       String sessionId, JsonArray history, Boolean stripMarkup) {

  public StartRun(String runId, String question, String namespace, JsonObject filters, String profile,
                  String sessionId) {
    this(runId, question, namespace, filters, profile, sessionId, null, null);
  }

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("question", question).put("namespace", namespace)
        .put("filters", filters).put("profile", profile).put("sessionId", sessionId).put("history", history)
        .put("stripMarkup", stripMarkup);
  }

  public static StartRun fromJson(JsonObject j) {
    return new StartRun(j.getString("runId"), j.getString("question"), j.getString("namespace"),
        j.getJsonObject("filters"), j.getString("profile"), j.getString("sessionId"), j.getJsonArray("history"),
        j.getBoolean("stripMarkup"));
  }
}
