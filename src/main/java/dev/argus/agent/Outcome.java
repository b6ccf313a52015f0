package dev.argus.agent;

import dev.argus.agent.compose.Markup;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a run ends with, read from Reflect's output: the answer text (markup stripped when asked), its kind, citations,
 * whether it is verified and the confidence. An empty answer, or a {@code no_answer} verdict, ends with the refusal:
 * no citations, not verified, confidence 0.
 */
record Outcome(String answer, String kind, JsonArray citations, boolean verified, double confidence,
               JsonObject verification) {

  static final String NO_ANSWER = "no_answer";
  static final String SMALLTALK = "smalltalk";

  static Outcome of(JsonObject reflect, String noAnswerText, boolean stripMarkup) {
    JsonObject verification = reflect.getJsonObject("verification", new JsonObject());
    String answer = reflect.getString("answer", "");
    String kind = verification.getString("kind", "answer");
    if (answer == null || answer.isBlank()) {
      answer = noAnswerText;
      kind = NO_ANSWER;
    }
    boolean refused = NO_ANSWER.equals(kind);
    return new Outcome(stripMarkup ? Markup.strip(answer) : answer, kind,
        refused ? new JsonArray() : verification.getJsonArray("citations", new JsonArray()),
        !refused && verification.getBoolean("verified", false),
        refused ? 0 : verification.getDouble("confidence", 0.0), verification);
  }

  /** The {@code final} event's data. */
  JsonObject result(String runId, JsonObject timings, int loops) {
    JsonObject r = new JsonObject().put("runId", runId).put("answer", answer).put("citations", citations)
        .put("verified", verified).put("confidence", confidence).put("kind", kind).put("timings", timings)
        .put("loops", loops).put("cached", false);
    return NO_ANSWER.equals(kind) ? r.put("suggestions", verification.getJsonArray("suggestions", new JsonArray())) : r;
  }

  /** The {@code verification} event's data: Reflect's findings with the outcome's verdict. */
  JsonObject verificationEvent() {
    return verification.copy().put("verified", verified).put("confidence", confidence).put("kind", kind);
  }

  /** Refusals and small talk are answered afresh every time. */
  boolean cacheable() {
    return !NO_ANSWER.equals(kind) && !SMALLTALK.equals(kind);
  }
}
