package dev.argus.records;

import io.vertx.core.json.JsonObject;

/**
 * One event of a load job on {@link dev.argus.bus.Addresses#recordJobEvents(String)}: {@code {seq, type, data}} with
 * {@code type} {@code progress} (the job without its error list), {@code errors} ({@code {errors: [...]}}, the refused
 * lines of one batch) or {@code done} (the whole job, last). {@code seq} grows by one per event and is the SSE id.
 */
public record RecordJobEvent(long seq, String type, JsonObject data) {

  public static final String PROGRESS = "progress";
  public static final String ERRORS = "errors";
  public static final String DONE = "done";

  public JsonObject toJson() {
    return new JsonObject().put("seq", seq).put("type", type).put("data", data);
  }

  public static RecordJobEvent fromJson(JsonObject json) {
    return new RecordJobEvent(json.getLong("seq"), json.getString("type"), json.getJsonObject("data"));
  }
}
