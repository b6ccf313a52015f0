package dev.argus.records;

import io.vertx.core.json.JsonObject;

import java.time.OffsetDateTime;

/**
 * What a stored record looked like to someone at time {@code asOf}, so that a decision (or a backtest) made as of that
 * time never sees later facts: a record whose event time ({@code at}, {@code createdAt}, {@code openedAt}) is later is
 * invisible; a case closed later is still {@code pending} (its {@code closedAt} and closing {@code summary} withheld);
 * a seller's {@code status} has no time of its own, so it is withheld as of any time. Watchlist entries have no time
 * and are always visible.
 */
public final class AsOf {

  private AsOf() {
  }

  /** The view of {@code body} as of {@code asOfMs} (null: now, unchanged), or null when it did not exist yet. */
  public static JsonObject view(JsonObject body, Long asOfMs) {
    if (asOfMs == null || body == null) {
      return body;
    }
    Long at = eventTime(body);
    if (at != null && at > asOfMs) {
      return null;
    }
    String kind = body.getString("kind");
    if (RecordKind.SELLER.wire().equals(kind) && body.containsKey("status")) {
      JsonObject copy = body.copy();
      copy.remove("status");
      return copy;
    }
    if (RecordKind.CASE.wire().equals(kind)) {
      Long closed = millis(body.getString("closedAt"));
      if (closed != null && closed > asOfMs) {
        JsonObject copy = body.copy().put("outcome", "pending").put("summaryWithheld", true);
        copy.remove("closedAt");
        copy.remove("summary");
        return copy;
      }
    }
    return body;
  }

  /** The event time of a stored record in epoch ms, or null when its kind has none (watchlist entries). */
  public static Long eventTime(JsonObject body) {
    for (String field : new String[] {"at", "createdAt", "openedAt"}) {
      if (body.getValue(field) instanceof String s) {
        return millis(s);
      }
    }
    return null;
  }

  static Long millis(String iso) {
    return iso == null ? null : OffsetDateTime.parse(iso).toInstant().toEpochMilli();
  }
}
