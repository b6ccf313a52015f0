package dev.argus.runs;

import io.vertx.core.json.JsonObject;

/** What a run was asked: the question, the knowledge namespace, explicit metadata filters and the chat session. */
public record RunInput(String question, String namespace, JsonObject filters, String sessionId) {

  public RunInput {
    filters = filters == null ? new JsonObject() : filters;
  }

  public JsonObject toJson() {
    return new JsonObject().put("question", question).put("namespace", namespace).put("filters", filters)
        .put("sessionId", sessionId);
  }

  public static RunInput fromJson(JsonObject json) {
    return new RunInput(json.getString("question"), json.getString("namespace"), json.getJsonObject("filters"),
        json.getString("sessionId"));
  }
}
