package dev.argus.eval.store;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/** The aggregate of one metric of one profile over one UTC hour {@code [hourStart, hourStart + 1h)}. */
public record HourlyPoint(String profile, String metric, long hourStartMs, int n, double mean, double min, double max) {

  public static final long HOUR_MS = 3_600_000L;

  /** The start of the UTC hour holding {@code ms}. */
  public static long hourOf(long ms) {
    return Math.floorDiv(ms, HOUR_MS) * HOUR_MS;
  }

  public JsonObject toJson() {
    return new JsonObject().put("profile", profile).put("metric", metric)
        .put("hour", Instant.ofEpochMilli(hourStartMs).toString()).put("hourStart", hourStartMs).put("n", n)
        .put("mean", mean).put("min", min).put("max", max);
  }
}
