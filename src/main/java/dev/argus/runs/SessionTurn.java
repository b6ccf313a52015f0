package dev.argus.runs;

import io.vertx.core.json.JsonObject;

/** One turn of a chat session: the question as asked, its standalone form, the answer, and when. */
public record SessionTurn(String sessionId, String runId, String question, String standalone, String answer,
                          long createdAtMs) {

  /** The shape kept in a run's input history ({@code {question, standalone, answer}}). */
  public JsonObject toHistoryJson() {
    return new JsonObject().put("question", question).put("standalone", standalone).put("answer", answer);
  }
}
