package dev.argus.adversarial;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of attack an adversarial run plants, each with the family of probe that judges it and the severity of a
 * miss. The fraud types are the world generator's planted patterns (decided by the decision engine: caught when not
 * approved); {@code obfuscated_identifiers} is judged on the entity graph; the last three on the language side.
 */
public enum ScenarioType {
  SYNTHETIC_IDENTITY(Family.DECISION, Severity.CRITICAL, "synthetic_identity"),
  MULE_NETWORK(Family.DECISION, Severity.CRITICAL, "mule_network"),
  /** Velocity evasion and structuring: amounts kept just under a reporting threshold, spread over time. */
  STRUCTURING(Family.DECISION, Severity.HIGH, "structuring"),
  ACCOUNT_TAKEOVER(Family.DECISION, Severity.HIGH, "account_takeover"),
  COLLUSION_RING(Family.DECISION, Severity.HIGH, "collusion_ring"),
  OBFUSCATED_IDENTIFIERS(Family.GRAPH, Severity.MEDIUM, null),
  HIDDEN_INSTRUCTIONS(Family.LANGUAGE, Severity.CRITICAL, null),
  POISONED_DOCUMENTS(Family.LANGUAGE, Severity.HIGH, null),
  FABRICATED_CITATIONS(Family.LANGUAGE, Severity.HIGH, null);

  /** How a scenario of the type is judged. */
  public enum Family { DECISION, GRAPH, LANGUAGE }

  /** Severity of a vulnerability (a scenario that was not caught), most severe first. */
  public enum Severity {
    CRITICAL, HIGH, MEDIUM, LOW;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Family family;
  private final Severity missSeverity;
  private final String worldPattern;

  ScenarioType(Family family, Severity missSeverity, String worldPattern) {
    this.family = family;
    this.missSeverity = missSeverity;
    this.worldPattern = worldPattern;
  }

  public Family family() {
    return family;
  }

  public Severity missSeverity() {
    return missSeverity;
  }

  /** The world generator's pattern label this type plants, or null. */
  public String worldPattern() {
    return worldPattern;
  }

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<ScenarioType> fromWire(String s) {
    return Arrays.stream(values()).filter(t -> t.wire().equals(s)).findFirst();
  }

  public static List<String> wireNames() {
    return Arrays.stream(values()).map(ScenarioType::wire).toList();
  }
}
