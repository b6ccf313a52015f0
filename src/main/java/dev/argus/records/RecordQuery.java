package dev.argus.records;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@link dev.argus.bus.Addresses#RECORDS_QUERY} and the filter of {@code GET /api/records}:
 * {@code {kinds?: [...], sellerId?, buyerId?, subjectId?, from?, to?, asOf?, offset?, limit?}}, times ISO-8601.
 * <ul>
 *   <li>{@code sellerId}: the seller, its transactions and payouts, and the refunds and chargebacks of its
 *   transactions;</li>
 *   <li>{@code buyerId}: the buyer and its transactions; {@code subjectId}: risk events about it and cases naming it;</li>
 *   <li>{@code from}/{@code to}: event time window (inclusive); {@code asOf}: only what was known at that time (event
 *   time at or before it; a case closed later shows as pending, see {@link AsOf}).</li>
 * </ul>
 * Results are in event-time order, then id. {@code limit} at most {@link #MAX_LIMIT} ({@link #MAX_INTERNAL_LIMIT} for
 * the signal computations inside records).
 */
public record RecordQuery(List<RecordKind> kinds, String sellerId, String buyerId, String subjectId, Long fromMs,
                          Long toMs, Long asOfMs, int offset, int limit) {

  public static final int MAX_LIMIT = 1000;
  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_INTERNAL_LIMIT = 200_000;

  public RecordQuery {
    kinds = kinds == null ? List.of() : List.copyOf(kinds);
  }

  /** The upper bound of event time this query sees: the smaller of {@code to} and {@code asOf}. */
  public Long upperMs() {
    if (toMs == null) {
      return asOfMs;
    }
    return asOfMs == null ? toMs : Math.min(toMs, asOfMs);
  }

  public static RecordQuery of(List<RecordKind> kinds, String sellerId, Long fromMs, Long asOfMs, int limit) {
    return new RecordQuery(kinds, sellerId, null, null, fromMs, null, asOfMs, 0, limit);
  }

  public static RecordQuery ofSubject(List<RecordKind> kinds, String subjectId, Long asOfMs, int limit) {
    return new RecordQuery(kinds, null, null, subjectId, null, null, asOfMs, 0, limit);
  }

  public JsonObject toJson() {
    JsonArray k = new JsonArray();
    kinds.forEach(x -> k.add(x.wire()));
    return new JsonObject().put("kinds", k).put("sellerId", sellerId).put("buyerId", buyerId)
        .put("subjectId", subjectId).put("from", iso(fromMs)).put("to", iso(toMs)).put("asOf", iso(asOfMs))
        .put("offset", offset).put("limit", limit);
  }

  /** Validates a query from the bus or HTTP; every problem is a 400 naming the field. */
  public static RecordQuery fromJson(JsonObject json) {
    List<RecordKind> kinds = new ArrayList<>();
    Object k = json.getValue("kinds");
    if (k != null) {
      if (!(k instanceof JsonArray array) || array.size() > RecordKind.values().length) {
        throw ApiException.badRequest("invalid_field", "field 'kinds' must be an array of record kinds");
      }
      for (Object o : array) {
        kinds.add(kind(o));
      }
    }
    int offset = integer(json, "offset", 0, 0, 1_000_000);
    int limit = integer(json, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
    return new RecordQuery(kinds, id(json, "sellerId"), id(json, "buyerId"), id(json, "subjectId"),
        time(json, "from"), time(json, "to"), time(json, "asOf"), offset, limit);
  }

  public static RecordKind kind(Object o) {
    if (!(o instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "a record kind must be a string");
    }
    return RecordKind.fromWire(s).orElseThrow(() -> ApiException.badRequest("invalid_field",
        "unknown record kind '" + s + "': use " + String.join(", ", RecordKind.wireNames())));
  }

  static String id(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || !WireFields.ID.matcher(s).matches()) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a record id ("
          + WireFields.ID.pattern() + ")");
    }
    return s;
  }

  /** An optional ISO-8601 time field as epoch milliseconds. */
  public static Long time(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v == null) {
      return null;
    }
    if (v instanceof String s) {
      try {
        return java.time.OffsetDateTime.parse(s).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        // reported below
      }
    }
    throw ApiException.badRequest("invalid_field", "field '" + field + "' must be an ISO-8601 time with a zone, "
        + "e.g. 2024-05-01T10:00:00Z");
  }

  private static int integer(JsonObject json, String field, int def, int min, int max) {
    Object v = json.getValue(field);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() < min
        || n.longValue() > max) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be an integer between " + min
          + " and " + max);
    }
    return n.intValue();
  }

  public static String iso(Long ms) {
    return ms == null ? null : Instant.ofEpochMilli(ms).toString();
  }
}
