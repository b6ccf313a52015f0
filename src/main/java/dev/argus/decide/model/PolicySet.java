package dev.argus.decide.model;

import dev.argus.config.Settings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A versioned policy file ({@code conf/policies/policies.json} is live; {@code policies@<version>.json} are
 * candidates): hard rules evaluated after Reflect. {@link #evaluate} returns the rules that fired, in file order.
 */
public record PolicySet(String version, List<PolicyRule> rules) {

  /** One rule that fired: its id, action and why. */
  public record Fired(String id, Verdict action, String detail) {
    public JsonObject toJson(DecisionProfile p) {
      return new JsonObject().put("id", id).put("action", p.outcome(action)).put("detail", detail);
    }
  }

  public List<Fired> evaluate(DecisionProfile profile, PolicyFacts facts) {
    List<Fired> out = new ArrayList<>();
    for (PolicyRule r : rules) {
      if (!r.appliesTo(profile)) {
        continue;
      }
      String detail = r.fires(facts);
      if (detail != null) {
        out.add(new Fired(r.id(), r.action(), detail));
      }
    }
    return out;
  }

  public static PolicySet from(String file, JsonObject json) {
    Settings s = new Settings(file, json);
    String version = s.nonBlank("version", null);
    if (!version.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
      throw s.error("version", "must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    }
    JsonArray arr = json.getJsonArray("rules", new JsonArray());
    List<PolicyRule> rules = new ArrayList<>();
    for (int i = 0; i < arr.size(); i++) {
      rules.add(PolicyRule.from(file, i, arr.getJsonObject(i)));
    }
    return new PolicySet(version, List.copyOf(rules));
  }
}
