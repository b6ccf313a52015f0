package dev.argus.decide.rules;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns the evidence of the Act phase (one {@code EvidenceItem} JSON per tool call) into raw signal values, each with
 * the citation of the evidence it comes from ({@code [source:<tool>:<evidenceIndex>]}). The record tools' items are
 * read by their known shapes; any tool may also report named numbers in {@code data.signals} (the graph tools do), kept as
 * {@code <tool>.<name>} for a scoring model's {@code from}.
 * A failed tool's signals are unknown with the failure as the note; nothing is guessed.
 */
public final class SignalExtractor {

  private SignalExtractor() {
  }

  /** Raw values by signal name, plus facts for policies: {@code country} (string) in {@code facts}. */
  public static Map<String, RawSignal> extract(JsonArray evidence, JsonObject facts) {
    Map<String, RawSignal> out = new LinkedHashMap<>();
    for (Object o : evidence) {
      JsonObject e = (JsonObject) o;
      String tool = e.getString("tool");
      String cite = "[source:" + tool + ":" + e.getInteger("index", 0) + "]";
      if (!e.getBoolean("success", false)) {
        continue;
      }
      JsonObject data = e.getJsonObject("data", new JsonObject());
      JsonArray items = data.getJsonArray("items", new JsonArray());
      switch (tool) {
        case "seller_profile" -> sellerProfile(items, cite, out, facts);
        case "transaction_history" -> history(items, cite, out);
        case "watchlist_match" -> watchlist(items, cite, out);
        case "graph_connections", "identifier_sharing" -> connections(items, cite, tool, out);
        default -> {
        }
      }
      JsonObject signals = data.getJsonObject("signals");
      if (signals != null) {
        for (String name : signals.fieldNames()) {
          if (signals.getValue(name) instanceof Number n) {
            String key = tool + "." + name;
            out.putIfAbsent(key, new RawSignal(key, n.doubleValue(), cite, tool, null));
          }
        }
      }
    }
    return out;
  }

  private static void put(Map<String, RawSignal> out, String name, Double value, String cite, String tool,
                          String note) {
    out.put(name, new RawSignal(name, value, cite, tool, note));
  }

  private static JsonObject item(JsonArray items, String key, String value) {
    for (Object o : items) {
      if (o instanceof JsonObject j && value.equals(j.getString(key))) {
        return j;
      }
    }
    return null;
  }

  static void sellerProfile(JsonArray items, String cite, Map<String, RawSignal> out, JsonObject facts) {
    String tool = "seller_profile";
    JsonObject app = item(items, "type", "application");
    if (app != null) {
      put(out, "account_age_days", number(app.getValue("accountAgeDays")), cite, tool, null);
      if (app.getString("country") != null) {
        facts.put("country", app.getString("country"));
      }
    }
    JsonObject activity = item(items, "type", "activity");
    if (activity != null) {
      put(out, "payout_account_mismatch", number(activity.getValue("payoutAccountsNotRegistered")), cite, tool,
          "payout accounts that are not the registered account");
    }
    JsonObject events = item(items, "type", "risk_events");
    if (events != null) {
      JsonObject by = events.getJsonObject("bySeverity", new JsonObject());
      put(out, "risk_events_severe", (double) (by.getInteger("high", 0) + by.getInteger("critical", 0)), cite, tool,
          "high and critical risk events");
    }
    JsonObject cases = item(items, "type", "cases");
    if (cases != null) {
      put(out, "fraud_cases", (double) cases.getJsonObject("byOutcome", new JsonObject()).getInteger("fraud", 0),
          cite, tool, "cases closed as fraud");
    }
  }

  static void history(JsonArray items, String cite, Map<String, RawSignal> out) {
    String tool = "transaction_history";
    JsonObject velocity = item(items, "signal", "velocity");
    if (velocity != null) {
      put(out, "velocity_ratio", number(velocity.getValue("ratio24hToBaseline")), cite, tool,
          velocity.getString("ratioUnknown"));
    }
    JsonObject z = item(items, "signal", "amount_zscore");
    if (z != null) {
      put(out, "amount_zscore", "known".equals(z.getString("status")) ? number(z.getValue("zScore")) : null, cite,
          tool, z.getString("reason"));
    }
    for (String ratio : new String[] {"refund_ratio", "chargeback_ratio"}) {
      JsonObject r = item(items, "signal", ratio);
      if (r != null && "known".equals(r.getString("status"))) {
        int count = r.getInteger("count", 0);
        int of = r.getInteger("transactions", 0);
        double lower = wilsonLower(count, of);
        put(out, ratio, lower, cite, tool, count + " of " + of + " transactions (ratio " + r.getValue("ratio")
            + "); the value is the 95% Wilson lower bound, so one reversal among a few sales is not a pattern");
      } else if (r != null) {
        put(out, ratio, null, cite, tool, r.getString("reason"));
      }
    }
    JsonObject buyer = item(items, "signal", "buyer_refund_ratio");
    if (buyer != null && "known".equals(buyer.getString("status"))) {
      int count = buyer.getInteger("count", 0);
      int of = buyer.getInteger("transactions", 0);
      put(out, "buyer_refund_ratio", wilsonLower(Math.min(count, of), of), cite, tool, "buyer " + buyer.getString("buyerId")
          + ": " + count + " refunds and chargebacks known by then on " + of + " earlier purchases (ratio "
          + buyer.getValue("ratio") + "); the value is the 95% Wilson lower bound");
    } else if (buyer != null) {
      put(out, "buyer_refund_ratio", null, cite, tool, buyer.getString("reason"));
    }
  }

  /**
   * {@code shared_payout_account}: how many other sellers or buyers share a bank account with the subject (a payout
   * or registered account; one controller behind several sellers — mule networks).
   */
  static void connections(JsonArray items, String cite, String tool, Map<String, RawSignal> out) {
    java.util.Set<String> others = new java.util.TreeSet<>();
    for (Object o : items) {
      JsonObject j = (JsonObject) o;
      if ("bank_account".equals(j.getString("type"))) {
        j.getJsonArray("sharedWith", new JsonArray()).forEach(x -> others.add(String.valueOf(x)));
      }
    }
    put(out, "shared_payout_account", (double) others.size(), cite, tool,
        others.isEmpty() ? "no bank account shared with another subject"
            : "bank account shared with " + String.join(", ", others.stream().limit(5).toList()));
  }

  static void watchlist(JsonArray items, String cite, Map<String, RawSignal> out) {
    String tool = "watchlist_match";
    int exact = 0;
    double similar = 0;
    for (Object o : items) {
      JsonObject j = (JsonObject) o;
      if (!"watchlist_hit".equals(j.getString("type"))) {
        continue;
      }
      if ("exact".equals(j.getString("match")) || "range".equals(j.getString("match"))) {
        exact++;
      } else {
        similar = Math.max(similar, j.getDouble("similarity", 0.0));
      }
    }
    put(out, "watchlist_exact", (double) exact, cite, tool, exact + " exact watchlist hit(s)");
    put(out, "watchlist_similarity", similar, cite, tool, "best fuzzy name similarity");
  }

  /**
   * The lower bound of the 95% Wilson score interval of {@code count / n}: a rate that accounts for how few
   * observations it rests on (1 of 6 → 0.030, 25 of 100 → 0.175). 0 when {@code n} is 0.
   */
  public static double wilsonLower(int count, int n) {
    if (n <= 0) {
      return 0;
    }
    double z = 1.96;
    double p = (double) count / n;
    double z2 = z * z;
    double centre = p + z2 / (2.0 * n);
    double spread = z * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
    return Math.round(10_000.0 * Math.max(0, (centre - spread) / (1 + z2 / n))) / 10_000.0;
  }

  private static Double number(Object v) {
    return v instanceof Number n ? n.doubleValue() : null;
  }
}
