package dev.argus.eval.store;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * A regression found by the rule: the hour's mean of a metric ({@code lastValue}) fell more than {@code threshold}
 * below the trailing mean ({@code baseline}); {@code dropRatio = 1 - lastValue / baseline}.
 */
public record Regression(String id, String profile, String metric, long hourStartMs, double lastValue, double baseline,
                         double dropRatio, double threshold, long createdAtMs) {

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("profile", profile).put("metric", metric)
        .put("hour", Instant.ofEpochMilli(hourStartMs).toString()).put("hourStart", hourStartMs)
        .put("lastValue", lastValue).put("baseline", baseline).put("dropRatio", dropRatio)
        .put("threshold", threshold).put("detectedAt", createdAtMs);
  }

  public static Regression fromJson(JsonObject j) {
    return new Regression(j.getString("id"), j.getString("profile"), j.getString("metric"), j.getLong("hourStart"),
        j.getDouble("lastValue"), j.getDouble("baseline"), j.getDouble("dropRatio"), j.getDouble("threshold"),
        j.getLong("detectedAt"));
  }
}
