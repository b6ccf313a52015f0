package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The agent tools over fraud-domain records ({@code argus.records.*}): {@code seller_profile},
 * {@code transaction_history}, {@code watchlist_match}. Each returns citable evidence items ({@link EvidenceTool});
 * a signal the records cannot support is returned as {@code status: unknown} with the reason, never guessed.
 */
public final class RecordTools {

  static final String ID = "^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$";
  static final String TIME = "^\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}(:\\\\d{2}(\\\\.\\\\d{1,9})?)?(Z|[+-]\\\\d{2}:\\\\d{2})$";

  private RecordTools() {
  }

  public static List<Tool> all(Vertx vertx, long timeoutMs) {
    return List.of(sellerProfile(vertx, timeoutMs), transactionHistory(vertx, timeoutMs), watchlistMatch(vertx, timeoutMs));
  }

  public static Tool sellerProfile(Vertx vertx, long timeoutMs) {
    return new EvidenceTool(vertx, "seller_profile",
        "A seller's application and record as of a time: identity, contact identifiers, account age, registered and "
            + "payout bank accounts (fingerprints, last 4), payout activity, risk events and cases. Items: "
            + "application, activity, risk_events, cases.",
        new JsonObject("""
            {"type": "object", "additionalProperties": false, "required": ["sellerId"],
             "properties": {
               "sellerId": {"type": "string", "pattern": "%s"},
               "asOf": {"type": "string", "pattern": "%s"}
             }}
            """.formatted(ID, TIME)), Addresses.RECORDS_SELLER_PROFILE, timeoutMs);
  }

  public static Tool transactionHistory(Vertx vertx, long timeoutMs) {
    return new EvidenceTool(vertx, "transaction_history",
        "A seller's transaction signals as of a time: velocity per window (1h, 24h, 7d, 30d) against its 90-day "
            + "baseline, the amount z-score of a transaction (default: the latest) against the seller's own history, "
            + "refund and chargeback ratios over 90 days. Signals without enough data are reported unknown.",
        new JsonObject("""
            {"type": "object", "additionalProperties": false, "required": ["sellerId"],
             "properties": {
               "sellerId": {"type": "string", "pattern": "%s"},
               "asOf": {"type": "string", "pattern": "%s"},
               "transactionId": {"type": "string", "pattern": "%s"}
             }}
            """.formatted(ID, TIME, ID)), Addresses.RECORDS_TRANSACTION_HISTORY, timeoutMs);
  }

  public static Tool watchlistMatch(Vertx vertx, long timeoutMs) {
    String list = "{\"type\": \"array\", \"maxItems\": 50, \"items\": {\"type\": \"string\", \"minLength\": 1, "
        + "\"maxLength\": 256}}";
    return new EvidenceTool(vertx, "watchlist_match",
        "Checks a seller's identifiers (names, e-mail and its domain, phone, IPs, website domain, registered and "
            + "payout bank accounts) and/or given identifiers against the watchlist: exact matches, IPs inside "
            + "watched ranges, and names by trigram similarity (minSimilarity, default 0.45). Bank accounts only as "
            + "fingerprints (fp_...). The last item summarizes what was checked.",
        new JsonObject("""
            {"type": "object", "additionalProperties": false, "minProperties": 1,
             "anyOf": [{"required": ["sellerId"]}, {"required": ["names"]}, {"required": ["emails"]},
                       {"required": ["phones"]}, {"required": ["ips"]}, {"required": ["domains"]},
                       {"required": ["bankAccountFps"]}],
             "properties": {
               "sellerId": {"type": "string", "pattern": "%s"},
               "asOf": {"type": "string", "pattern": "%s"},
               "names": %s, "emails": %s, "phones": %s, "ips": %s, "domains": %s,
               "bankAccountFps": {"type": "array", "maxItems": 50, "items": {"type": "string", "pattern": "^fp_[A-Za-z0-9_-]{8,64}$"}},
               "minSimilarity": {"type": "number", "minimum": 0.3, "maximum": 1}
             }}
            """.formatted(ID, TIME, list, list, list, list, list)), Addresses.RECORDS_WATCHLIST_MATCH, timeoutMs);
  }
}
