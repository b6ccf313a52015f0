package dev.argus.runs;

import io.vertx.core.json.JsonObject;

/**
 * One line of the run listing ({@code GET /api/runs}): who asked what and where the run is, without its phases,
 * evidence or events. {@code question} is cut to {@link #QUESTION_CHARS} characters.
 */
public record RunSummary(String runId, String profile, RunStatus status, String question, long createdAtMs,
                         long updatedAtMs) {

  public static final int QUESTION_CHARS = 200;

  public RunSummary {
    question = shorten(question);
  }

  static String shorten(String q) {
    if (q == null || q.length() <= QUESTION_CHARS) {
      return q;
    }
    int end = QUESTION_CHARS;
    if (Character.isHighSurrogate(q.charAt(end - 1))) {
      end--; // never split a surrogate pair
    }
    return q.substring(0, end);
  }

  /** {@code {runId, profile, status, question, createdAt, updatedAt, finishedAt?}}; finishedAt once the run ended. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("runId", runId).put("profile", profile).put("status", status.wire())
        .put("question", question).put("createdAt", createdAtMs).put("updatedAt", updatedAtMs);
    if (status != RunStatus.RUNNING) {
      j.put("finishedAt", updatedAtMs);
    }
    return j;
  }
}
