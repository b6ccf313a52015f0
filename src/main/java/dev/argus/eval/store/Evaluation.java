package dev.argus.eval.store;

import dev.argus.eval.score.Scorecard;
import io.vertx.core.json.JsonObject;

/**
 * The evaluation of one run or decision: what was evaluated ({@code kind} chat|decision), its profile, when, its
 * scorecard and details (the LLM judge's outcome, the decision id, the subject).
 */
public record Evaluation(String runId, String kind, String profile, long createdAtMs, Scorecard scorecard,
                         JsonObject details) {

  public static final String CHAT = "chat";
  public static final String DECISION = "decision";

  public Evaluation {
    details = details == null ? new JsonObject() : details;
  }

  public JsonObject toJson() {
    return scorecard.toJson().put("runId", runId).put("kind", kind).put("profile", profile)
        .put("evaluatedAt", createdAtMs).put("details", details);
  }

  public static Evaluation fromJson(JsonObject j) {
    return new Evaluation(j.getString("runId"), j.getString("kind"), j.getString("profile"),
        j.getLong("evaluatedAt", 0L), Scorecard.fromJson(j), j.getJsonObject("details", new JsonObject()));
  }
}
