package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Validation helpers for request bodies and parameters; every problem becomes a 4xx {@link ApiException}. */
public final class Requests {

  private Requests() {
  }

  /** The body as a JSON object; 415 unless the content type is JSON, 400 when it does not parse or is not an object. */
  public static JsonObject jsonObject(RoutingContext ctx) {
    String type = ctx.request().getHeader("Content-Type");
    if (type != null && !type.toLowerCase().startsWith("application/json")) {
      throw ApiException.unsupportedMedia("expected Content-Type application/json, got " + type);
    }
    if (ctx.body() == null || ctx.body().length() == 0) {
      throw ApiException.badRequest("invalid_json", "request body is empty; expected a JSON object");
    }
    Object parsed;
    try {
      parsed = ctx.body().buffer().toJsonValue(); // Vert.x 5: toJson() returns a String
    } catch (DecodeException e) {
      throw ApiException.badRequest("invalid_json", "request body is not valid JSON");
    }
    if (!(parsed instanceof JsonObject obj)) {
      throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
    }
    return obj;
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

  /** An integer query parameter within bounds, or the default. */
  public static int queryInt(RoutingContext ctx, String name, int def, int min, int max) {
    String raw = ctx.request().getParam(name);
    if (raw == null || raw.isEmpty()) {
      return def;
    }
    try {
      int v = Integer.parseInt(raw);
      if (v < min || v > max) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "query parameter '" + name + "' must be an integer between "
          + min + " and " + max);
    }
  }
}
