package dev.argus.ingest;

import io.vertx.core.json.JsonObject;

/**
 * One event of a job on {@link dev.argus.bus.Addresses#ingestJobEvents(String)}: {@code {seq, type, data}} with
 * {@code type} {@code progress} (the job JSON without its document list), {@code document}
 * ({@code {id, outcome, chunks, error?}}) or {@code done} (the whole job JSON, last). {@code seq} grows by one
 * per event of the job and is the SSE event id.
 */
public record JobEvent(long seq, String type, JsonObject data) {

  public static final String PROGRESS = "progress";
  public static final String DOCUMENT = "document";
  public static final String DONE = "done";

  public JsonObject toJson() {
    return new JsonObject().put("seq", seq).put("type", type).put("data", data);
  }

  public static JobEvent fromJson(JsonObject json) {
    return new JobEvent(json.getLong("seq"), json.getString("type"), json.getJsonObject("data"));
  }
}
