package dev.argus.backtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the backtest keeps of one decision: the subject (with its label), the engine's outcome, status, risk score and
 * confidence, the names of the signals that raised the score (contribution > 0), the policy rules that fired, the
 * request-reply latency, or the error when no decision came back ({@code outcome} is then null).
 */
public record Verdict(LabelledSubject subject, String outcome, String status, double riskScore, double confidence,
                      List<String> signals, List<String> rules, double latencyMs, String error) {

  /** The three outcomes of either profile: let it pass, send it to a person, stop it. */
  public enum Band {
    PASS, REVIEW, STOP;

    /** {@code APPROVE}/{@code ALLOW} → PASS, {@code REVIEW} → REVIEW, {@code REJECT}/{@code BLOCK} → STOP. */
    public static Band of(String outcome) {
      return switch (outcome == null ? "" : outcome.toUpperCase(Locale.ROOT)) {
        case "APPROVE", "ALLOW" -> PASS;
        case "REVIEW" -> REVIEW;
        case "REJECT", "BLOCK" -> STOP;
        default -> throw new IllegalArgumentException("unknown outcome '" + outcome + "'");
      };
    }

    /** The outcome's name in a profile: PASS is APPROVE for onboarding and ALLOW for transactions (no profile: PASS). */
    public String outcomeIn(String profile) {
      if (profile == null) {
        return name();
      }
      boolean tx = LabelledSubject.TRANSACTION.equals(profile);
      return switch (this) {
        case PASS -> tx ? "ALLOW" : "APPROVE";
        case REVIEW -> "REVIEW";
        case STOP -> tx ? "BLOCK" : "REJECT";
      };
    }
  }

  public static final String PENDING_REVIEW = "PENDING_REVIEW";

  public boolean failed() {
    return outcome == null;
  }

  public Band band() {
    return Band.of(outcome);
  }

  /** A person looks at it: the outcome is REVIEW or the decision waits for review. */
  public boolean needsPerson() {
    return band() == Band.REVIEW || PENDING_REVIEW.equals(status);
  }

  public static Verdict failed(LabelledSubject subject, double latencyMs, String error) {
    return new Verdict(subject, null, null, 0, 0, List.of(), List.of(), latencyMs, error);
  }

  /** Reads the parts of a decision JSON (the {@code argus.decide.*} reply) the backtest measures. */
  public static Verdict of(LabelledSubject subject, JsonObject decision, double latencyMs) {
    String outcome = decision.getString("outcome");
    Band.of(outcome); // refuses an outcome the report cannot place
    List<String> signals = new ArrayList<>();
    JsonArray sig = decision.getJsonArray("signals", new JsonArray());
    for (int i = 0; i < sig.size(); i++) {
      Object o = sig.getValue(i);
      if (o instanceof JsonObject s && s.getString("name") != null && number(s, "contribution") > 0) {
        signals.add(s.getString("name"));
      }
    }
    List<String> rules = new ArrayList<>();
    JsonArray fired = decision.getJsonArray("firedRules", new JsonArray());
    for (int i = 0; i < fired.size(); i++) {
      Object o = fired.getValue(i);
      String name = o instanceof String s ? s : o instanceof JsonObject r ? firstNonNull(r.getString("id"),
          r.getString("rule"), r.getString("name")) : null;
      if (name != null) {
        rules.add(name);
      }
    }
    return new Verdict(subject, outcome.toUpperCase(Locale.ROOT), decision.getString("status"),
        number(decision, "riskScore"), number(decision, "confidence"), List.copyOf(signals), List.copyOf(rules),
        latencyMs, null);
  }

  private static double number(JsonObject o, String key) {
    Object v = o.getValue(key);
    return v instanceof Number n ? n.doubleValue() : 0.0;
  }

  private static String firstNonNull(String... values) {
    for (String v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  public JsonObject toJson() {
    return new JsonObject().put("subjectId", subject.id()).put("profile", subject.profile())
        .put("fraud", subject.fraud()).put("pattern", subject.pattern()).put("outcome", outcome).put("status", status)
        .put("riskScore", riskScore).put("confidence", confidence).put("signals", new JsonArray(signals))
        .put("rules", new JsonArray(rules)).put("latencyMs", latencyMs).put("error", error);
  }
}
