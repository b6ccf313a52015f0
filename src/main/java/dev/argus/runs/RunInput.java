package dev.argus.runs;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a run was asked: the question, the knowledge namespace, explicit metadata filters, the chat session, the
 * conversation before it ({@code history}: earlier turns {@code {question, standalone?, answer?}}, oldest first, from
 * the session or from the request's messages) and whether markup is stripped from the answer text.
 */
public record RunInput(String question, String namespace, JsonObject filters, String sessionId, JsonArray history,
                       boolean stripMarkup) {

  public RunInput {
    filters = filters == null ? new JsonObject() : filters;
    history = history == null ? new JsonArray() : history;
  }

  public RunInput(String question, String namespace, JsonObject filters, String sessionId) {
    this(question, namespace, filters, sessionId, null, false);
  }

  public RunInput withHistory(JsonArray turns) {
    return new RunInput(question, namespace, filters, sessionId, turns, stripMarkup);
  }

  public JsonObject toJson() {
    return new JsonObject().put("question", question).put("namespace", namespace).put("filters", filters)
        .put("sessionId", sessionId).put("history", history).put("stripMarkup", stripMarkup);
  }

  public static RunInput fromJson(JsonObject json) {
    return new RunInput(json.getString("question"), json.getString("namespace"), json.getJsonObject("filters"),
        json.getString("sessionId"), json.getJsonArray("history"), json.getBoolean("stripMarkup", false));
  }
}
