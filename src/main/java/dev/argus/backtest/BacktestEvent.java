package dev.argus.backtest;

import io.vertx.core.json.JsonObject;

/**
 * One event of a backtest on {@link dev.argus.bus.Addresses#backtestEvents(String)}: {@code {seq, type, data}} with
 * {@code type} {@code progress} (the job without its report; at phase changes and at most every 250 ms while
 * deciding) or {@code done} (the whole job with its report, last). {@code seq} grows by one per event and is the SSE id.
 */
public record BacktestEvent(long seq, String type, JsonObject data) {

  public static final String PROGRESS = "progress";
  public static final String DONE = "done";

  public JsonObject toJson() {
    return new JsonObject().put("seq", seq).put("type", type).put("data", data);
  }

  public static BacktestEvent fromJson(JsonObject json) {
    return new BacktestEvent(json.getLong("seq"), json.getString("type"), json.getJsonObject("data"));
  }
}
