package dev.argus.feedback;

import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * A checked {@code POST /api/feedback} body (also the request of {@code argus.feedback.submit}): on a decision
 * ({@code decisionId}: {@code label} and {@code reason} required, {@code trueOutcome} optional) or on a chat answer
 * ({@code runId}: {@code label} and/or {@code rating} 1..5, {@code reason} optional); {@code comment} at most
 * {@value #MAX_COMMENT} characters; {@code analyst} required. Every problem is a 400 with a code: exactly one target
 * ({@code invalid_target}), unknown fields ({@code unknown_field}), unknown label/reason/outcome ({@code invalid_field}),
 * a reason that contradicts the label ({@code inconsistent_feedback}).
 */
public record FeedbackRequest(Target target, String targetId, Label label, Reason reason, String trueOutcome,
                              Integer rating, String comment, String analyst) {

  public enum Target { DECISION, RUN;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final int MAX_ID = 128;
  public static final int MAX_ANALYST = 128;
  public static final int MAX_COMMENT = 4000;
  /** Outcomes of both decision profiles (onboarding APPROVE/REVIEW/REJECT, transaction ALLOW/REVIEW/BLOCK). */
  public static final Set<String> OUTCOMES = Set.of("APPROVE", "REVIEW", "REJECT", "ALLOW", "BLOCK");
  static final Set<String> FIELDS = Set.of("decisionId", "runId", "label", "reason", "trueOutcome", "rating",
      "comment", "analyst");

  public static FeedbackRequest fromJson(JsonObject body) {
    for (String key : body.fieldNames()) {
      if (!FIELDS.contains(key)) {
        throw ApiException.badRequest("unknown_field", "unknown field '" + abbreviate(key) + "'; expected "
            + String.join(", ", FIELDS.stream().sorted().toList()));
      }
    }
    String decisionId = Fields.optionalString(body, "decisionId", MAX_ID);
    String runId = Fields.optionalString(body, "runId", MAX_ID);
    if ((decisionId == null) == (runId == null)) {
      throw ApiException.badRequest("invalid_target", "give exactly one of 'decisionId' and 'runId'");
    }
    Target target = decisionId != null ? Target.DECISION : Target.RUN;
    String id = (decisionId != null ? decisionId : runId).strip();
    if (id.isEmpty()) {
      throw ApiException.badRequest("empty_field", "field '" + (decisionId != null ? "decisionId" : "runId")
          + "' must not be empty");
    }
    String analyst = Fields.requiredString(body, "analyst", MAX_ANALYST).strip();
    if (analyst.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest("invalid_field", "field 'analyst' must not hold control characters");
    }
    String labelText = Fields.optionalString(body, "label", 32);
    Label label = labelText == null ? null : Label.parse(labelText);
    if (labelText != null && label == null) {
      throw ApiException.badRequest("invalid_field", "field 'label' must be one of correct, incorrect");
    }
    String reasonText = Fields.optionalString(body, "reason", 32);
    Reason reason = reasonText == null ? null : Reason.parse(reasonText);
    if (reasonText != null && reason == null) {
      throw ApiException.badRequest("invalid_field", "field 'reason' must be one of " + String.join(", ",
          Arrays.stream(Reason.values()).map(Reason::wire).toList()));
    }
    String trueOutcome = Fields.optionalString(body, "trueOutcome", 32);
    if (trueOutcome != null) {
      trueOutcome = trueOutcome.strip().toUpperCase(Locale.ROOT);
      if (!OUTCOMES.contains(trueOutcome)) {
        throw ApiException.badRequest("invalid_field", "field 'trueOutcome' must be one of "
            + String.join(", ", OUTCOMES.stream().sorted().toList()));
      }
    }
    Integer rating = Fields.optionalInt(body, "rating", 1, 5);
    String comment = Fields.optionalString(body, "comment", MAX_COMMENT);
    if (target == Target.DECISION) {
      if (label == null) {
        throw ApiException.badRequest("missing_field", "field 'label' is required for a decision");
      }
      if (reason == null) {
        throw ApiException.badRequest("missing_field", "field 'reason' is required for a decision");
      }
      if (rating != null) {
        throw ApiException.badRequest("invalid_field", "field 'rating' applies to chat answers (runId), not to decisions");
      }
    } else {
      if (label == null && rating == null) {
        throw ApiException.badRequest("missing_field", "a chat answer's feedback needs 'label' or 'rating'");
      }
      if (trueOutcome != null) {
        throw ApiException.badRequest("invalid_field", "field 'trueOutcome' applies to decisions, not to chat answers");
      }
    }
    if (reason != null && label != null && !reason.consistentWith(label)) {
      throw ApiException.badRequest("inconsistent_feedback", "reason '" + reason.wire() + "' does not go with label '"
          + label.wire() + "'");
    }
    return new FeedbackRequest(target, id, label, reason, trueOutcome, rating, comment == null || comment.isBlank()
        ? null : comment, analyst);
  }

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put(target == Target.DECISION ? "decisionId" : "runId", targetId)
        .put("analyst", analyst);
    if (label != null) {
      j.put("label", label.wire());
    }
    if (reason != null) {
      j.put("reason", reason.wire());
    }
    if (trueOutcome != null) {
      j.put("trueOutcome", trueOutcome);
    }
    if (rating != null) {
      j.put("rating", rating);
    }
    if (comment != null) {
      j.put("comment", comment);
    }
    return j;
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }
}
