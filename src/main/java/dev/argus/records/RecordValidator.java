package dev.argus.records;

import dev.argus.common.Fingerprinter;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.argus.records.WireFields.address;
import static dev.argus.records.WireFields.amount;
import static dev.argus.records.WireFields.country;
import static dev.argus.records.WireFields.currency;
import static dev.argus.records.WireFields.digits;
import static dev.argus.records.WireFields.email;
import static dev.argus.records.WireFields.id;
import static dev.argus.records.WireFields.ip;
import static dev.argus.records.WireFields.oneOf;
import static dev.argus.records.WireFields.phone;
import static dev.argus.records.WireFields.string;
import static dev.argus.records.WireFields.strings;
import static dev.argus.records.WireFields.time;
import static dev.argus.records.WireFields.token;

/**
 * Validates wire records (one JSON object per line, fields as in the README) and turns them into their stored form:
 * raw tax ids, bank accounts and card numbers become keyed fingerprints ({@link Fingerprinter}); fields a kind does not
 * define go under {@code metadata}; the ground-truth {@code label} is taken out. A bad field fails the whole line with
 * its name and the reason. Thread-safe.
 */
public final class RecordValidator {

  public static final List<String> SELLER_STATUSES = List.of("active", "pending", "suspended", "closed");
  public static final List<String> TRANSACTION_STATUSES = List.of("approved", "declined", "pending", "reversed");
  public static final List<String> SEVERITIES = List.of("low", "medium", "high", "critical");
  public static final List<String> OUTCOMES = List.of("fraud", "legit", "pending");
  public static final List<String> WATCHLIST_TYPES = List.of(WatchlistKeys.NAME, WatchlistKeys.EMAIL, WatchlistKeys.PHONE,
      WatchlistKeys.IP, WatchlistKeys.IP_RANGE, WatchlistKeys.BANK_ACCOUNT, WatchlistKeys.DOMAIN);
  static final int MAX_NAME = 200;
  static final int MAX_TEXT = 20_000;
  static final int MAX_LABEL_CHARS = 2_000;

  private final Fingerprinter fp;
  private final int maxLineChars;

  public RecordValidator(Fingerprinter fp, int maxLineChars) {
    this.fp = fp;
    this.maxLineChars = maxLineChars;
  }

  /** The outcome of one line: a record, an error, or neither for a blank line. */
  public record Line(DomainRecord record, LineError error) {
  }

  /** Parses and validates line {@code number} (1-based) of a JSON Lines batch. */
  public Line line(long number, String text) {
    if (text.isBlank()) {
      return new Line(null, null);
    }
    if (text.length() > maxLineChars) {
      return new Line(null, new LineError(number, null, null, "line is longer than " + maxLineChars + " characters"));
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(text);
    } catch (DecodeException e) {
      return new Line(null, new LineError(number, null, null, "not valid JSON"));
    }
    if (!(parsed instanceof JsonObject wire)) {
      return new Line(null, new LineError(number, null, null, "a line must be one JSON object"));
    }
    String id = wire.getValue("id") instanceof String s ? s.strip() : null;
    try {
      return new Line(validate(wire), null);
    } catch (FieldError e) {
      return new Line(null, new LineError(number, e.field(), id, e.getMessage()));
    }
  }

  /** Validates one wire record; throws {@link FieldError} naming the first bad field. */
  DomainRecord validate(JsonObject wire) {
    String kindName = string(wire, "kind", 32, true);
    RecordKind kind = RecordKind.fromWire(kindName).orElseThrow(() -> new FieldError("kind",
        "must be one of " + String.join(", ", RecordKind.wireNames()) + ", got '" + kindName + "'"));
    String id = id(wire, "id", true);
    JsonObject label = label(wire);
    Builder b = new Builder(kind, id, wire);
    switch (kind) {
      case SELLER -> seller(b, wire);
      case BUYER -> buyer(b, wire);
      case TRANSACTION -> transaction(b, wire);
      case PAYOUT -> payout(b, wire);
      case REFUND, CHARGEBACK -> reversal(b, wire);
      case RISK_EVENT -> riskEvent(b, wire);
      case CASE -> kase(b, wire);
      case WATCHLIST_ENTRY -> watchlist(b, wire);
    }
    return b.build(label);
  }

  private void seller(Builder b, JsonObject w) {
    b.at = b.put("createdAt", time(w, "createdAt", true), string(w, "createdAt", 64, true));
    b.sellerId = b.id;
    b.put("legalName", string(w, "legalName", MAX_NAME, true));
    b.put("businessName", string(w, "businessName", MAX_NAME, false));
    b.put("email", email(w, "email", false));
    b.put("phone", phone(w, "phone", false));
    b.put("address", address(w, "address"));
    b.put("country", country(w, "country", "country", true));
    b.put("website", string(w, "website", 253, false));
    String taxId = string(w, "taxId", 64, false);
    b.put("taxIdFp", taxId == null ? null : fp.taxId(taxId));
    bankAccount(b, string(w, "bankAccount", 64, false), "bankAccount");
    b.put("deviceIds", strings(w, "deviceIds", 128, false, false));
    b.put("ips", strings(w, "ips", 64, true, false));
    b.put("status", oneOf(w, "status", false, SELLER_STATUSES));
    b.known("taxId", "bankAccount");
  }

  private void buyer(Builder b, JsonObject w) {
    b.at = b.put("createdAt", time(w, "createdAt", true), string(w, "createdAt", 64, true));
    b.buyerId = b.id;
    b.put("name", string(w, "name", MAX_NAME, false));
    b.put("email", email(w, "email", false));
    b.put("phone", phone(w, "phone", false));
    b.put("address", address(w, "address"));
    b.put("deviceIds", strings(w, "deviceIds", 128, false, false));
    b.put("ips", strings(w, "ips", 64, true, false));
  }

  private void transaction(Builder b, JsonObject w) {
    b.at = b.put("at", time(w, "at", true), string(w, "at", 64, true));
    b.sellerId = b.put("sellerId", id(w, "sellerId", true));
    b.buyerId = b.put("buyerId", id(w, "buyerId", false));
    b.put("amount", amount(w, "amount", true));
    b.put("currency", currency(w, "currency", true));
    String bin = b.put("cardBin", digits(w, "cardBin", 6, 8));
    String last4 = b.put("cardLast4", digits(w, "cardLast4", 4, 4));
    if ((bin == null) != (last4 == null)) {
      throw new FieldError(bin == null ? "cardBin" : "cardLast4", "is required when "
          + (bin == null ? "cardLast4" : "cardBin") + " is given");
    }
    b.put("cardCountry", country(w, "cardCountry", "cardCountry", false));
    b.put("cardFp", bin == null ? null : fp.card(bin, last4));
    b.put("deviceId", string(w, "deviceId", 128, false));
    b.put("ip", ip(w, "ip", false));
    b.put("country", country(w, "country", "country", false));
    b.put("status", oneOf(w, "status", false, TRANSACTION_STATUSES));
  }

  private void payout(Builder b, JsonObject w) {
    b.at = b.put("at", time(w, "at", true), string(w, "at", 64, true));
    b.sellerId = b.put("sellerId", id(w, "sellerId", true));
    bankAccount(b, string(w, "bankAccount", 64, true), "bankAccount");
    b.put("amount", amount(w, "amount", true));
    b.put("currency", currency(w, "currency", true));
    b.known("bankAccount");
  }

  private void reversal(Builder b, JsonObject w) {
    b.at = b.put("at", time(w, "at", true), string(w, "at", 64, true));
    b.refId = b.put("transactionId", id(w, "transactionId", true));
    b.put("amount", amount(w, "amount", true));
    b.put("reason", string(w, "reason", 500, false));
  }

  private void riskEvent(Builder b, JsonObject w) {
    b.at = b.put("at", time(w, "at", true), string(w, "at", 64, true));
    b.subjectId = b.put("subjectId", id(w, "subjectId", true));
    b.put("type", token(w, "type", true));
    b.put("severity", oneOf(w, "severity", true, SEVERITIES));
    Object details = w.getValue("details");
    if (details != null) {
      if (!(details instanceof String) && !(details instanceof JsonObject)) {
        throw new FieldError("details", "must be a string or an object");
      }
      if (details instanceof String s && s.length() > MAX_TEXT) {
        throw new FieldError("details", "is longer than " + MAX_TEXT + " characters");
      }
      b.put("details", details instanceof String s ? s.strip() : details);
    }
  }

  private void kase(Builder b, JsonObject w) {
    JsonArray subjects = strings(w, "subjectIds", 128, false, true);
    for (int i = 0; i < subjects.size(); i++) {
      if (!WireFields.ID.matcher(subjects.getString(i)).matches()) {
        throw new FieldError("subjectIds[" + i + "]", "must match " + WireFields.ID.pattern());
      }
    }
    b.put("subjectIds", subjects);
    b.subjects = subjects.stream().map(String::valueOf).distinct().toList();
    b.put("outcome", oneOf(w, "outcome", true, OUTCOMES));
    b.put("summary", string(w, "summary", MAX_TEXT, true));
    Long opened = time(w, "openedAt", true);
    b.at = b.put("openedAt", opened, string(w, "openedAt", 64, true));
    Long closed = time(w, "closedAt", false);
    if (closed != null && closed < opened) {
      throw new FieldError("closedAt", "must not be before openedAt");
    }
    b.put("closedAt", string(w, "closedAt", 64, false));
  }

  private void watchlist(Builder b, JsonObject w) {
    String type = oneOf(w, "type", true, WATCHLIST_TYPES);
    b.put("type", type);
    String value = switch (type) {
      case WatchlistKeys.EMAIL -> email(w, "value", true);
      case WatchlistKeys.PHONE -> phone(w, "value", true);
      case WatchlistKeys.IP -> ip(w, "value", true);
      default -> string(w, "value", 256, true);
    };
    if (type.equals(WatchlistKeys.IP_RANGE) && !WireFields.isCidr(value)) {
      throw new FieldError("value", "must be a CIDR range, e.g. 203.0.113.0/24");
    }
    if (type.equals(WatchlistKeys.NAME) && WatchlistKeys.name(value).isEmpty()) {
      throw new FieldError("value", "must contain letters or digits");
    }
    b.known("value");
    if (type.equals(WatchlistKeys.BANK_ACCOUNT)) {
      b.put("valueFp", fp.bankAccount(value));
    } else {
      b.put("value", value);
    }
    b.put("reason", string(w, "reason", 500, false));
    b.matchKey = WatchlistKeys.ofEntry(type, value, fp);
    b.watchName = type.equals(WatchlistKeys.NAME) ? WatchlistKeys.name(value) : null;
  }

  private void bankAccount(Builder b, String raw, String field) {
    if (raw == null) {
      return;
    }
    if (Fingerprinter.alphanumericUpper(raw).length() < 4) {
      throw new FieldError(field, "must hold at least 4 letters or digits");
    }
    b.put(field + "Fp", fp.bankAccount(raw));
    b.put(field + "Last4", Fingerprinter.last4(raw));
  }

  private static JsonObject label(JsonObject wire) {
    Object v = wire.getValue("label");
    if (v == null) {
      return null;
    }
    JsonObject label = v instanceof String s ? new JsonObject().put("pattern", s) : v instanceof JsonObject o ? o : null;
    if (label == null) {
      throw new FieldError("label", "must be a string or an object");
    }
    if (label.encode().length() > MAX_LABEL_CHARS) {
      throw new FieldError("label", "is longer than " + MAX_LABEL_CHARS + " characters");
    }
    return label;
  }

  /** Collects the stored form in wire order, then the fields the kind does not define under {@code metadata}. */
  private static final class Builder {
    private static final Set<String> COMMON = Set.of("kind", "id", "label", "metadata");
    final RecordKind kind;
    final String id;
    final JsonObject wire;
    final JsonObject body = new JsonObject();
    final List<String> known = new ArrayList<>();
    Long at;
    String sellerId;
    String buyerId;
    String refId;
    String subjectId;
    List<String> subjects = List.of();
    String matchKey;
    String watchName;

    Builder(RecordKind kind, String id, JsonObject wire) {
      this.kind = kind;
      this.id = id;
      this.wire = wire;
      body.put("kind", kind.wire()).put("id", id);
    }

    <T> T put(String field, T value) {
      known.add(field);
      if (value != null) {
        body.put(field, value);
      }
      return value;
    }

    /** A time field: stored as given, indexed as epoch milliseconds. */
    Long put(String field, Long millis, String text) {
      put(field, text);
      return millis;
    }

    void known(String... fields) {
      known.addAll(List.of(fields));
    }

    DomainRecord build(JsonObject label) {
      JsonObject metadata = new JsonObject();
      Object given = wire.getValue("metadata");
      if (given != null && !(given instanceof JsonObject)) {
        throw new FieldError("metadata", "must be an object");
      }
      if (given instanceof JsonObject g) {
        metadata.mergeIn(g);
      }
      for (String field : wire.fieldNames()) {
        if (!COMMON.contains(field) && !known.contains(field)) {
          metadata.put(field, wire.getValue(field));
        }
      }
      if (!metadata.isEmpty()) {
        body.put("metadata", metadata);
      }
      return DomainRecord.of(id, kind, body, label, at, sellerId, buyerId, refId, subjectId, subjects, matchKey,
          watchName);
    }
  }
}
