package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * Reading HTTP requests: the JSON body and query parameters; every problem becomes a 4xx {@link ApiException}.
 * Field checks inside a JSON object are {@link dev.argus.common.Fields}, shared with the event-bus contracts.
 */
public final class Requests {

  private Requests() {
  }

  /** The body as a JSON object; 415 unless the content type is JSON, 400 when it does not parse or is not an object. */
  public static JsonObject jsonObject(RoutingContext ctx) {
    String type = ctx.request().getHeader("Content-Type");
    if (type != null && !type.toLowerCase().startsWith("application/json")) {
      throw ApiException.unsupportedMedia("expected Content-Type application/json, got " + type);
    }
    if (ctx.body() == null || ctx.body().buffer() == null || ctx.body().length() <= 0) {
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
    rejectNul(obj);
    return obj;
  }

  /**
   * Refuses a NUL character anywhere in a JSON value (a key or a string, however deep): no store accepts it
   * (PostgreSQL rejects it in text and jsonb, SQLite's full-text queries end at it), so it stops here, at the edge,
   * as a 400 {@code invalid_character}.
   */
  public static void rejectNul(Object json) {
    if (json instanceof String s) {
      if (s.indexOf(0) >= 0) {
        throw ApiException.badRequest("invalid_character", "the request holds a NUL character (\\u0000)");
      }
    } else if (json instanceof JsonObject obj) {
      for (var entry : obj) {
        rejectNul(entry.getKey());
        rejectNul(entry.getValue());
      }
    } else if (json instanceof JsonArray array) {
      for (Object item : array) {
        rejectNul(item);
      }
    }
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
