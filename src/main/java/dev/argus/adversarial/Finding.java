package dev.argus.adversarial;

import io.vertx.core.json.JsonObject;

/**
 * The outcome of one planted scenario: {@code detected} (the defence held: the fraud was not approved, the identifier
 * resolved to the same entity, the instruction was not obeyed, the fabricated citation was not accepted), {@code
 * missed} (a vulnerability), or {@code error} (the probe could not be made; counted apart, never as a detection).
 * {@code technique} names the variant (e.g. {@code homoglyph}); {@code observed} says what was seen.
 */
public record Finding(String scenarioId, ScenarioType type, String technique, String subject, Status status,
                      String observed) {

  public enum Status { DETECTED, MISSED, ERROR }

  public static Finding detected(Scenario s, String observed) {
    return new Finding(s.id(), s.type(), s.technique(), s.subject(), Status.DETECTED, observed);
  }

  public static Finding missed(Scenario s, String observed) {
    return new Finding(s.id(), s.type(), s.technique(), s.subject(), Status.MISSED, observed);
  }

  public static Finding error(Scenario s, String reason) {
    return new Finding(s.id(), s.type(), s.technique(), s.subject(), Status.ERROR, reason);
  }

  public JsonObject toJson() {
    return new JsonObject().put("scenarioId", scenarioId).put("type", type.wire()).put("technique", technique)
        .put("subject", subject).put("status", status.name().toLowerCase(java.util.Locale.ROOT))
        .put("observed", observed);
  }
}
