package dev.argus.feedback;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * What feedback keeps of a decision (from {@code argus.decisions.created} or {@code argus.decisions.get}): id, profile,
 * subject, outcome, raw and calibrated confidence (0..1) with the calibrator version, creation time, and its latest
 * label ({@code null} while unlabelled).
 */
public record DecisionRef(String decisionId, String profile, String subjectId, String outcome, double confidence,
                          Double calibratedConfidence, Integer calibratorVersion, long createdAtMs, Label label,
                          String trueOutcome) {

  /**
   * Reads the decision JSON of the decisions contract; 422 {@code invalid_decision} when it lacks an id, a profile or
   * a confidence within 0..1.
   */
  public static DecisionRef fromDecision(JsonObject d) {
    String id = d.getValue("decisionId") instanceof String s ? s : null;
    String profile = d.getValue("profile") instanceof String s ? s : null;
    Double confidence = d.getValue("confidence") instanceof Number n ? n.doubleValue() : null;
    if (id == null || id.isBlank() || id.length() > FeedbackRequest.MAX_ID || profile == null || profile.isBlank()
        || profile.length() > 64 || confidence == null || !(confidence >= 0 && confidence <= 1)) {
      throw new ApiException(422, "invalid_decision", "a decision needs decisionId, profile and confidence within 0..1");
    }
    Double calibrated = d.getValue("calibratedConfidence") instanceof Number n && n.doubleValue() >= 0
        && n.doubleValue() <= 1 ? n.doubleValue() : null;
    JsonObject calibration = d.getValue("calibration") instanceof JsonObject c ? c : d;
    Integer version = version(calibration.getValue("calibratorVersion"));
    return new DecisionRef(id, profile, text(d, "subjectId"), text(d, "outcome"), confidence, calibrated, version,
        time(d.getValue("createdAt")), null, null);
  }

  /** The confidence the queue orders by: the calibrated one when there is one, the raw one otherwise. */
  public double effectiveConfidence() {
    return calibratedConfidence != null ? calibratedConfidence : confidence;
  }

  public JsonObject toJson() {
    return new JsonObject().put("decisionId", decisionId).put("profile", profile).put("subjectId", subjectId)
        .put("outcome", outcome).put("confidence", confidence).put("calibratedConfidence", calibratedConfidence)
        .put("calibratorVersion", calibratorVersion).put("createdAt", Instant.ofEpochMilli(createdAtMs).toString())
        .put("label", label == null ? null : label.wire()).put("trueOutcome", trueOutcome);
  }

  /** A calibrator version: a number, or {@code "v<n>"}; null for {@code "raw"} or anything else. */
  static Integer version(Object v) {
    if (v instanceof Number n) {
      return n.intValue();
    }
    if (v instanceof String s && s.matches("v?[0-9]{1,9}")) {
      return Integer.parseInt(s.startsWith("v") ? s.substring(1) : s);
    }
    return null;
  }

  private static String text(JsonObject d, String key) {
    Object v = d.getValue(key);
    return v instanceof String s && s.length() <= 256 ? s : null;
  }

  private static long time(Object v) {
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return Instant.parse(s).toEpochMilli();
      } catch (DateTimeParseException ignored) {
        // fall through: now
      }
    }
    return System.currentTimeMillis();
  }
}
