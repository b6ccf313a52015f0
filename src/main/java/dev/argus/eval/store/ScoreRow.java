package dev.argus.eval.store;

import io.vertx.core.json.JsonObject;

/** One stored score: a metric of one run, with the run's profile and evaluation time. */
public record ScoreRow(String runId, String profile, String metric, long createdAtMs, double value) {

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("profile", profile).put("metric", metric)
        .put("at", createdAtMs).put("value", value);
  }
}
