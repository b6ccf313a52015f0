package dev.argus.runs;

import io.vertx.core.json.JsonObject;

/**
 * One progress event of a run, as published on {@code argus.run.<runId>} and kept in the run's event log:
 * ids increase by one from 1 within a run, so a client can resume with {@code Last-Event-ID}.
 */
public record RunEvent(String runId, long id, String type, JsonObject data, long createdAtMs) {

  public static final String RUN = "run";
  public static final String PHASE = "phase";
  public static final String AGENT_LOG = "agent_log";
  public static final String TOOL_CALL = "tool_call";
  public static final String TOOL_RESULT = "tool_result";
  /** Answer text that stands: the final answer, streamed after Reflect. */
  public static final String TOKEN = "token";
  /** Provisional answer text (the model's draft while Observe streams); a {@link #RESET} withdraws it. */
  public static final String DRAFT = "draft";
  /** The drafts streamed so far are withdrawn ({@code {reason}}). */
  public static final String RESET = "reset";
  /** A follow-up question was rewritten into a standalone one ({@code {original, standalone, subjects, path}}). */
  public static final String REWRITE = "rewrite";
  /** A retrieved source tries to instruct the assistant or carries markup ({@code {documentId, chunkIndex, title, reason}}). */
  public static final String SOURCE_FLAGGED = "source_flagged";
  public static final String CITATIONS = "citations";
  public static final String VERIFICATION = "verification";
  public static final String FINAL = "final";
  public static final String ERROR = "error";
  /**
   * Not a run event: what {@code POST /api/chat} sends first, without an id, to a chat that waits for a slot
   * ({@code {runId, position}}); never logged, so replay ({@code Last-Event-ID}) never sees it.
   */
  public static final String QUEUED = "queued";

  /** {@code final} and {@code error} end a run's stream. */
  public boolean terminal() {
    return FINAL.equals(type) || ERROR.equals(type);
  }

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("id", id).put("type", type).put("data", data)
        .put("createdAt", createdAtMs);
  }

  public static RunEvent fromJson(JsonObject json) {
    return new RunEvent(json.getString("runId"), json.getLong("id"), json.getString("type"),
        json.getJsonObject("data", new JsonObject()), json.getLong("createdAt", 0L));
  }
}
