package dev.argus.records.world;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the world as JSON Lines in the wire format, one record a line with its fields in a fixed order, and numbers
 * the records it writes ({@code T-00000001}, ...). Counts lines per kind.
 */
final class Emitter {

  private final Writer out;
  private final Map<String, Long> counts = new TreeMap<>();
  private long tx;
  private long payout;
  private long refund;
  private long chargeback;
  private long event;

  Emitter(Writer out) {
    this.out = out;
  }

  Map<String, Long> counts() {
    return counts;
  }

  static String time(long epochSeconds) {
    return Instant.ofEpochSecond(epochSeconds).toString();
  }

  private void write(JsonObject line) {
    line.getMap().values().removeIf(java.util.Objects::isNull);
    counts.merge(line.getString("kind"), 1L, Long::sum);
    try {
      out.write(line.encode());
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonObject address(Fakes.Address a) {
    return new JsonObject().put("line1", a.line1()).put("city", a.city()).put("postalCode", a.postalCode())
        .put("country", a.country());
  }

  void seller(Plans.Seller s) {
    write(new JsonObject().put("kind", "seller").put("id", s.id).put("createdAt", time(s.createdAt))
        .put("legalName", s.legalName).put("businessName", s.businessName).put("email", s.email).put("phone", s.phone)
        .put("address", address(s.address)).put("country", s.country).put("website", s.website).put("taxId", s.taxId)
        .put("bankAccount", s.bankAccount).put("deviceIds", new JsonArray(List.copyOf(s.deviceIds)))
        .put("ips", new JsonArray(List.copyOf(s.ips))).put("status", s.status).put("label", s.label));
  }

  void buyer(Plans.Buyer b) {
    write(new JsonObject().put("kind", "buyer").put("id", b.id).put("createdAt", time(b.createdAt)).put("name", b.name)
        .put("email", b.email).put("phone", b.phone).put("address", address(b.address))
        .put("deviceIds", new JsonArray(List.copyOf(b.deviceIds))).put("ips", new JsonArray(List.copyOf(b.ips)))
        .put("label", b.label));
  }

  /** Writes a transaction and returns its id. */
  String transaction(String sellerId, Plans.Buyer buyer, long at, double amount, String currency, Fakes.Card card,
                     String deviceId, String ip, String country, String status, String promoCode) {
    String id = "T-" + Fakes.pad(++tx, 8);
    JsonObject line = new JsonObject().put("kind", "transaction").put("id", id).put("at", time(at))
        .put("sellerId", sellerId).put("buyerId", buyer.id).put("amount", amount).put("currency", currency)
        .put("cardBin", card.bin()).put("cardLast4", card.last4()).put("cardCountry", card.country())
        .put("deviceId", deviceId).put("ip", ip).put("country", country).put("status", status);
    if (promoCode != null) {
      line.put("promoCode", promoCode); // not a transaction field: kept as metadata
    }
    write(line);
    return id;
  }

  void payout(String sellerId, long at, String bankAccount, double amount, String currency) {
    write(new JsonObject().put("kind", "payout").put("id", "P-" + Fakes.pad(++payout, 7)).put("at", time(at))
        .put("sellerId", sellerId).put("bankAccount", bankAccount).put("amount", amount).put("currency", currency));
  }

  void refund(String transactionId, long at, double amount, String reason) {
    write(new JsonObject().put("kind", "refund").put("id", "R-" + Fakes.pad(++refund, 7)).put("at", time(at))
        .put("transactionId", transactionId).put("amount", amount).put("reason", reason));
  }

  void chargeback(String transactionId, long at, double amount, String reason) {
    write(new JsonObject().put("kind", "chargeback").put("id", "CB-" + Fakes.pad(++chargeback, 7)).put("at", time(at))
        .put("transactionId", transactionId).put("amount", amount).put("reason", reason));
  }

  void riskEvent(String subjectId, long at, String type, String severity, JsonObject details) {
    write(new JsonObject().put("kind", "risk_event").put("id", "E-" + Fakes.pad(++event, 7)).put("at", time(at))
        .put("subjectId", subjectId).put("type", type).put("severity", severity).put("details", details));
  }

  void kase(String id, List<String> subjects, String outcome, String summary, long openedAt, Long closedAt) {
    write(new JsonObject().put("kind", "case").put("id", id).put("subjectIds", new JsonArray(List.copyOf(subjects)))
        .put("outcome", outcome).put("summary", summary).put("openedAt", time(openedAt))
        .put("closedAt", closedAt == null ? null : time(closedAt)));
  }

  void watchlist(String id, String type, String value, String reason) {
    write(new JsonObject().put("kind", "watchlist_entry").put("id", id).put("type", type).put("value", value)
        .put("reason", reason));
  }
}
