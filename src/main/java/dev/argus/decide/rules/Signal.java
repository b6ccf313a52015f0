package dev.argus.decide.rules;

import io.vertx.core.json.JsonObject;

/**
 * One scored signal of a decision: the raw value a tool measured ({@code null}: unknown — its tool failed or the
 * records cannot tell), the value scaled to 0..1 risk, its weight, its contribution to the 0..100 risk score, the
 * citation of its evidence, the tool and the domain.
 */
public record Signal(String name, Double raw, double scaled, double weight, double contribution, String cite,
                     String tool, String domain, String note) {

  public boolean known() {
    return raw != null;
  }

  public JsonObject toJson() {
    return new JsonObject().put("name", name).put("value", raw).put("scaled", scaled).put("weight", weight)
        .put("contribution", contribution).put("cite", cite).put("tool", tool).put("domain", domain)
        .put("known", known()).put("note", note);
  }

  public static Signal fromJson(JsonObject j) {
    return new Signal(j.getString("name"), j.getDouble("value"), j.getDouble("scaled", 0.0), j.getDouble("weight", 0.0),
        j.getDouble("contribution", 0.0), j.getString("cite"), j.getString("tool"), j.getString("domain"),
        j.getString("note"));
  }
}
