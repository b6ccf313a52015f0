package dev.argus.common;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Field checks on JSON objects, shared by HTTP routes and event-bus message records: every problem becomes a
 * 4xx {@link ApiException} with a code ({@code missing_field}, {@code invalid_field}, {@code empty_field},
 * {@code field_too_long}).
 */
public final class Fields {

  private Fields() {
  }

  /** A required string field: 400 when it is missing, not a string, blank, or longer than {@code maxChars}. */
  public static String requiredString(JsonObject body, String field, int maxChars) {
    Object v = body.getValue(field);
    if (v == null) {
      throw ApiException.badRequest("missing_field", "field '" + field + "' is required");
    }
    if (!(v instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a string");
    }
    if (s.isBlank()) {
      throw ApiException.badRequest("empty_field", "field '" + field + "' must not be empty");
    }
    if (s.length() > maxChars) {
      throw ApiException.badRequest("field_too_long", "field '" + field + "' is longer than " + maxChars + " characters");
    }
    return s;
  }

  /** An optional string field; 400 when present but not a string or longer than {@code maxChars}. */
  public static String optionalString(JsonObject body, String field, int maxChars) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a string");
    }
    if (s.length() > maxChars) {
      throw ApiException.badRequest("field_too_long", "field '" + field + "' is longer than " + maxChars + " characters");
    }
    return s;
  }

  /** An optional integer field within bounds. */
  public static Integer optionalInt(JsonObject body, String field, int min, int max) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be an integer");
    }
    if (n.longValue() < min || n.longValue() > max) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be between " + min + " and " + max);
    }
    return n.intValue();
  }

  public static JsonObject optionalObject(JsonObject body, String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject o)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a JSON object");
    }
    return o;
  }

  public static JsonArray optionalArray(JsonObject body, String field) {
    Object v = body.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonArray a)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a JSON array");
    }
    return a;
  }
}
