package dev.argus.records;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The kinds of fraud-domain records, by their wire name ({@code kind} of a JSON line). */
public enum RecordKind {
  SELLER("seller"), BUYER("buyer"), TRANSACTION("transaction"), PAYOUT("payout"), REFUND("refund"),
  CHARGEBACK("chargeback"), RISK_EVENT("risk_event"), CASE("case"), WATCHLIST_ENTRY("watchlist_entry");

  private final String wire;

  RecordKind(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static Optional<RecordKind> fromWire(String name) {
    return Arrays.stream(values()).filter(k -> k.wire.equals(name)).findFirst();
  }

  /** Every wire name, for error messages. */
  public static List<String> wireNames() {
    return Arrays.stream(values()).map(RecordKind::wire).toList();
  }
}
