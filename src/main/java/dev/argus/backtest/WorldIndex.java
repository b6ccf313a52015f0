package dev.argus.backtest;

import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the backtest learns from a world while it streams it to the store: the labels of sellers and buyers (which
 * never reach the store), each seller's application time, the last transaction of each seller and of each buyer, and
 * the latest event time in the world. Filled by one thread; read once the world has been read.
 */
public final class WorldIndex {

  /** A ground-truth label: {@code {fraud, pattern, group?}}. */
  public record Label(boolean fraud, String pattern, String group) {

    static Label of(Object raw) {
      if (raw instanceof String s) {
        return new Label(!s.isBlank() && !LabelledSubject.NO_PATTERN.equals(s), s, null);
      }
      if (raw instanceof JsonObject o) {
        String pattern = o.getValue("pattern") instanceof String p ? p : LabelledSubject.NO_PATTERN;
        boolean fraud = o.getValue("fraud") instanceof Boolean b ? b : !LabelledSubject.NO_PATTERN.equals(pattern);
        return new Label(fraud, pattern, o.getValue("group") instanceof String g ? g : null);
      }
      return null;
    }
  }

  public record Seller(String id, Instant createdAt, Label label) {
  }

  public record Tx(String id, Instant at, String sellerId, String buyerId) {
  }

  final Map<String, Seller> sellers = new LinkedHashMap<>();
  final Map<String, Label> buyers = new LinkedHashMap<>();
  final Map<String, Tx> lastTxBySeller = new LinkedHashMap<>();
  final Map<String, Tx> lastTxByBuyer = new LinkedHashMap<>();
  long lines;
  long unreadable;
  long transactions;
  Instant latest;

  public Map<String, Seller> sellers() {
    return sellers;
  }

  public Map<String, Label> buyers() {
    return buyers;
  }

  public long lines() {
    return lines;
  }

  public long transactions() {
    return transactions;
  }

  /** The latest event time of any record (null for a world without times). */
  public Instant latest() {
    return latest;
  }

  /** Notes one record (its wire form, label included) and returns its label, if it has one. */
  Label note(JsonObject record) {
    String kind = record.getValue("kind") instanceof String k ? k : "";
    String id = record.getValue("id") instanceof String s ? s : null;
    Label label = Label.of(record.getValue("label"));
    for (String field : new String[] {"at", "createdAt", "openedAt"}) {
      Instant t = time(record.getValue(field));
      if (t != null && (latest == null || t.isAfter(latest))) {
        latest = t;
      }
    }
    if (id == null) {
      return label;
    }
    switch (kind) {
      case "seller" -> {
        if (label != null) {
          sellers.put(id, new Seller(id, time(record.getValue("createdAt")), label));
        }
      }
      case "buyer" -> {
        if (label != null) {
          buyers.put(id, label);
        }
      }
      case "transaction" -> {
        transactions++;
        Instant at = time(record.getValue("at"));
        String seller = record.getValue("sellerId") instanceof String s ? s : null;
        String buyer = record.getValue("buyerId") instanceof String b ? b : null;
        if (at != null) {
          Tx tx = new Tx(id, at, seller, buyer);
          if (seller != null) {
            lastTxBySeller.merge(seller, tx, WorldIndex::later);
          }
          if (buyer != null) {
            lastTxByBuyer.merge(buyer, tx, WorldIndex::later);
          }
        }
      }
      default -> {
      }
    }
    return label;
  }

  private static Tx later(Tx a, Tx b) {
    return b.at().isAfter(a.at()) ? b : a;
  }

  static Instant time(Object v) {
    if (!(v instanceof String s)) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
