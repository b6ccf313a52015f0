package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The agent tools over fraud-domain records ({@code argus.records.*}), each one request on the bus ({@link BusTool}):
 * {@code seller_profile}, {@code transaction_history}, {@code watchlist_match}. The records capability computes the
 * reply's {@code items}; each becomes citable evidence with {@code cite: "[source:<tool>:<index>]"} (its index in the
 * result), and items about a seller or case also name it ({@code [entity:seller:S-1]}). A signal the records cannot
 * support comes back as {@code status: unknown} with the reason, never guessed.
 */
public final class RecordTools {

  static final String ID = "^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$";
  static final String TIME = "^\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}(:\\\\d{2}(\\\\.\\\\d{1,9})?)?(Z|[+-]\\\\d{2}:\\\\d{2})$";
  private static final String LIST = "{\"type\": \"array\", \"maxItems\": 50, \"items\": {\"type\": \"string\", "
      + "\"minLength\": 1, \"maxLength\": 256}}";

  static final BusTool.Spec SELLER_PROFILE = spec("seller_profile",
      "A seller's application and record as of a time: identity, contact identifiers, account age, registered and "
          + "payout bank accounts (fingerprints, last 4), payout activity, risk events and cases. Items: "
          + "application, activity, risk_events, cases.",
      """
          {"type": "object", "additionalProperties": false, "required": ["sellerId"],
           "properties": {
             "sellerId": {"type": "string", "pattern": "%s"},
             "asOf": {"type": "string", "pattern": "%s"}
           }}
          """.formatted(ID, TIME), Addresses.RECORDS_SELLER_PROFILE);

  static final BusTool.Spec TRANSACTION_HISTORY = spec("transaction_history",
      "A seller's transaction signals as of a time: velocity per window (1h, 24h, 7d, 30d) against its 90-day "
          + "baseline, the amount z-score of a transaction (default: the latest) against the seller's own history, "
          + "refund and chargeback ratios over 90 days. Signals without enough data are reported unknown.",
      """
          {"type": "object", "additionalProperties": false, "required": ["sellerId"],
           "properties": {
             "sellerId": {"type": "string", "pattern": "%s"},
             "asOf": {"type": "string", "pattern": "%s"},
             "transactionId": {"type": "string", "pattern": "%s"}
           }}
          """.formatted(ID, TIME, ID), Addresses.RECORDS_TRANSACTION_HISTORY);

  static final BusTool.Spec WATCHLIST_MATCH = spec("watchlist_match",
      "Checks a seller's identifiers (names, e-mail and its domain, phone, IPs, website domain, registered and "
          + "payout bank accounts) and/or given identifiers against the watchlist: exact matches, IPs inside "
          + "watched ranges, and names by trigram similarity (minSimilarity, default 0.45). Bank accounts only as "
          + "fingerprints (fp_...). The last item summarizes what was checked.",
      """
          {"type": "object", "additionalProperties": false, "minProperties": 1,
           "anyOf": [{"required": ["sellerId"]}, {"required": ["names"]}, {"required": ["emails"]},
                     {"required": ["phones"]}, {"required": ["ips"]}, {"required": ["domains"]},
                     {"required": ["bankAccountFps"]}],
           "properties": {
             "sellerId": {"type": "string", "pattern": "%s"},
             "asOf": {"type": "string", "pattern": "%s"},
             "names": %s, "emails": %s, "phones": %s, "ips": %s, "domains": %s,
             "bankAccountFps": {"type": "array", "maxItems": 50,
                                "items": {"type": "string", "pattern": "^fp_[A-Za-z0-9_-]{8,64}$"}},
             "minSimilarity": {"type": "number", "minimum": 0.3, "maximum": 1}
           }}
          """.formatted(ID, TIME, LIST, LIST, LIST, LIST, LIST), Addresses.RECORDS_WATCHLIST_MATCH);

  private RecordTools() {
  }

  private static BusTool.Spec spec(String name, String description, String schema, String address) {
    return new BusTool.Spec(name, description, new JsonObject(schema), address, params -> params,
        (request, reply) -> cite(name, reply), RecordTools::summary);
  }

  /** The record tools, each request within {@code timeoutMs}. */
  public static List<Tool> all(Vertx vertx, long timeoutMs) {
    return List.of(new BusTool(vertx, SELLER_PROFILE, timeoutMs), new BusTool(vertx, TRANSACTION_HISTORY, timeoutMs),
        new BusTool(vertx, WATCHLIST_MATCH, timeoutMs));
  }

  /** Labels every item of {@code result.items} with its citation key. */
  static JsonObject cite(String tool, JsonObject result) {
    JsonArray items = result.getJsonArray("items", new JsonArray());
    for (int i = 0; i < items.size(); i++) {
      items.getJsonObject(i).put("cite", "[source:" + tool + ":" + i + "]");
    }
    return result;
  }

  static JsonObject summary(JsonObject result) {
    JsonArray kinds = new JsonArray();
    result.getJsonArray("items", new JsonArray()).forEach(o -> {
      JsonObject item = (JsonObject) o;
      kinds.add(item.getString("type", item.getString("signal")));
    });
    return new JsonObject().put("items", kinds.size()).put("kinds", kinds);
  }
}
