package dev.argus.adversarial;

import io.vertx.core.json.JsonObject;

/**
 * One planted attack: its type, the variant ({@code technique}), the subject it is about (a seller id, an identifier,
 * a question) and what the probe needs ({@code input}: e.g. the original seller for an obfuscated twin, the canary
 * of a hidden instruction).
 */
public record Scenario(String id, ScenarioType type, String technique, String subject, JsonObject input) {

  public Scenario {
    input = input == null ? new JsonObject() : input;
  }

  /** The same scenario with the decision seen before the attack noted in its input. */
  public Scenario withBefore(String before) {
    return new Scenario(id, type, technique, subject, input.copy().put("before", before));
  }
}
