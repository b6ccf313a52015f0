package dev.argus.decide.store;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Filters of {@code GET /api/decisions} / {@code argus.decisions.list}; times are ISO-8601 or epoch ms. */
public record DecisionQuery(String subject, String outcome, String status, String profile, Long from, Long to,
                            int limit) {

  public static final int MAX_LIMIT = 500;

  public JsonObject toJson() {
    return new JsonObject().put("subject", subject).put("outcome", outcome).put("status", status)
        .put("profile", profile).put("from", from).put("to", to).put("limit", limit);
  }

  public static DecisionQuery fromJson(JsonObject j) {
    int limit = j.getValue("limit") == null ? 50 : number(j, "limit").intValue();
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ApiException.badRequest("invalid_parameter", "limit must be 1.." + MAX_LIMIT);
    }
    for (String f : new String[] {"subject", "outcome", "status", "profile"}) {
      Object v = j.getValue(f);
      if (v != null && (!(v instanceof String s) || s.length() > 200 || s.indexOf('\0') >= 0)) {
        throw ApiException.badRequest("invalid_parameter", f + " must be a string of at most 200 characters without NUL");
      }
    }
    return new DecisionQuery(j.getString("subject"), j.getString("outcome"), j.getString("status"),
        j.getString("profile"), time(j, "from"), time(j, "to"), limit);
  }

  private static Number number(JsonObject j, String f) {
    Object v = j.getValue(f);
    if (v instanceof Number n) {
      return n;
    }
    try {
      return Long.parseLong(String.valueOf(v));
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", f + " must be an integer");
    }
  }

  /** An ISO-8601 instant or epoch ms; null when absent. */
  public static Long time(JsonObject j, String f) {
    Object v = j.getValue(f);
    if (v == null || (v instanceof String s && s.isBlank())) {
      return null;
    }
    if (v instanceof Number n) {
      return n.longValue();
    }
    String s = String.valueOf(v);
    try {
      return Instant.parse(s).toEpochMilli();
    } catch (DateTimeParseException e) {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e2) {
        throw ApiException.badRequest("invalid_parameter", f + " must be an ISO-8601 instant or epoch ms, got '"
            + (s.length() > 40 ? s.substring(0, 40) : s) + "'");
      }
    }
  }
}
