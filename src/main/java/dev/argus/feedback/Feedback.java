package dev.argus.feedback;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * One stored verdict: on a decision or a chat run ({@code target}), by an analyst or derived from a closed case
 * ({@code source}: {@code analyst} | {@code case} | {@code review}, a completed review); {@code confidence} is the decision's raw confidence at the time.
 */
public record Feedback(String id, FeedbackRequest.Target target, String targetId, String profile, Label label,
                       Reason reason, String trueOutcome, Integer rating, String comment, String analyst,
                       String source, Double confidence, long createdAtMs) {

  public static final String SOURCE_ANALYST = "analyst";
  public static final String SOURCE_CASE = "case";
  public static final String SOURCE_REVIEW = "review";

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("id", id).put(target == FeedbackRequest.Target.DECISION ? "decisionId" : "runId",
            targetId).put("target", target.wire()).put("profile", profile)
        .put("label", label == null ? null : label.wire()).put("reason", reason == null ? null : reason.wire())
        .put("trueOutcome", trueOutcome).put("rating", rating).put("comment", comment).put("analyst", analyst)
        .put("source", source).put("confidence", confidence).put("createdAt", Instant.ofEpochMilli(createdAtMs).toString());
    return j;
  }
}
