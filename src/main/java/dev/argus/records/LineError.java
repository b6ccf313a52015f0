package dev.argus.records;

import io.vertx.core.json.JsonObject;

/**
 * Why one line of a JSON Lines batch was refused: its 1-based {@code line} number, the {@code field} at fault (a dotted
 * path such as {@code address.country}, or {@code null} when the line as a whole is wrong), the record {@code id} when
 * it could be read, and the {@code reason}. Nothing of a refused line is stored.
 */
public record LineError(long line, String field, String id, String reason) {

  public JsonObject toJson() {
    return new JsonObject().put("line", line).put("field", field).put("id", id).put("reason", reason);
  }

  public static LineError fromJson(JsonObject json) {
    return new LineError(json.getLong("line"), json.getString("field"), json.getString("id"), json.getString("reason"));
  }
}
