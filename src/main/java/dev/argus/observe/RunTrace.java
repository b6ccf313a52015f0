package dev.argus.observe;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The stored trace of one run: {@code {runId, traceId, createdAt, spans: [{spanId, parentSpanId, name, kind,
 * startMs, endMs, durationMs, status, error?, attributes}]}}, spans in start order, the run's span first. Times are
 * epoch milliseconds with microsecond fractions.
 */
public record RunTrace(String runId, String traceId, long createdAtMs, JsonArray spans) {

  public JsonObject toJson() {
    return new JsonObject().put("runId", runId).put("traceId", traceId).put("createdAt", createdAtMs)
        .put("spans", spans);
  }

  public static RunTrace fromJson(JsonObject j) {
    return new RunTrace(j.getString("runId"), j.getString("traceId"), j.getLong("createdAt", 0L),
        j.getJsonArray("spans", new JsonArray()));
  }
}
