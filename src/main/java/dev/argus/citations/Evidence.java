package dev.argus.citations;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The part of a run's evidence item ({@code EvidenceItem} json) that a source citation is judged by: which tool,
 * whether it succeeded, and whether it found anything (a non-empty {@code items} list, else non-empty
 * {@code signals}, else any data at all).
 */
public record Evidence(int index, String tool, boolean success, boolean found) {

  public static Evidence fromJson(JsonObject json, String where) {
    Object index = json.getValue("index");
    Object tool = json.getValue("tool");
    Object success = json.getValue("success");
    if (!(index instanceof Integer i) || i < 0) {
      throw ApiException.badRequest("invalid_evidence", where + ".index must be a non-negative integer");
    }
    if (!(tool instanceof String t) || t.isBlank() || t.length() > 64) {
      throw ApiException.badRequest("invalid_evidence", where + ".tool must be a tool name");
    }
    if (!(success instanceof Boolean ok)) {
      throw ApiException.badRequest("invalid_evidence", where + ".success must be true or false");
    }
    Object data = json.getValue("data");
    if (data != null && !(data instanceof JsonObject)) {
      throw ApiException.badRequest("invalid_evidence", where + ".data must be an object");
    }
    return new Evidence(i, t, ok, found((JsonObject) data));
  }

  static boolean found(JsonObject data) {
    if (data == null || data.isEmpty()) {
      return false;
    }
    if (data.getValue("items") instanceof JsonArray items) {
      return !items.isEmpty();
    }
    if (data.getValue("signals") instanceof JsonObject signals) {
      return !signals.isEmpty();
    }
    return true;
  }
}
