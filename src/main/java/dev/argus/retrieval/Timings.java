package dev.argus.retrieval;

import io.vertx.core.json.JsonObject;

/**
 * Milliseconds per stage of one search. The retrievers run concurrently, so their times overlap and do not add
 * up to {@code totalMs}; {@code vectorMs} is the vector scan alone, after {@code embedMs}. A retriever that did
 * not run has 0.
 */
public record Timings(double selfQueryMs, double embedMs, double vectorMs, double keywordMs, double trigramMs,
                      double fusionMs, double expandMs, double totalMs) {

  public JsonObject toJson() {
    return new JsonObject().put("selfQueryMs", selfQueryMs).put("embedMs", embedMs).put("vectorMs", vectorMs)
        .put("keywordMs", keywordMs).put("trigramMs", trigramMs).put("fusionMs", fusionMs).put("expandMs", expandMs)
        .put("totalMs", totalMs);
  }

  public static Timings fromJson(JsonObject json) {
    return new Timings(json.getDouble("selfQueryMs", 0.0), json.getDouble("embedMs", 0.0),
        json.getDouble("vectorMs", 0.0), json.getDouble("keywordMs", 0.0), json.getDouble("trigramMs", 0.0),
        json.getDouble("fusionMs", 0.0), json.getDouble("expandMs", 0.0), json.getDouble("totalMs", 0.0));
  }

  /** Milliseconds between two {@link System#nanoTime()} readings, rounded to 0.01 ms. */
  public static double ms(long fromNanos, long toNanos) {
    return Math.round((toNanos - fromNanos) / 10_000.0) / 100.0;
  }
}
