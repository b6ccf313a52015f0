package dev.argus.decide.tools;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The trading-pattern signals of {@code trading_patterns}, a pure function of a seller's transactions as of a time
 * (every transaction given is at or before the decision time; the caller fetches them with {@code asOf}). Each signal
 * is one evidence item {@code {signal, status: known|unknown, value, count, of, examples}}; with too few transactions
 * it is {@code unknown} with the reason, never a guess.
 * <ul>
 *   <li>{@code round_amount_share}: share of transactions whose amount is a whole multiple of {@value #ROUND_UNIT}
 *   (collusion moves fixed sums; card payments for goods rarely come out round);</li>
 *   <li>{@code top_buyers_share}: share of transactions from the {@value #TOP_BUYERS} most frequent buyers (buyer
 *   concentration; known from {@value #MIN_FOR_CONCENTRATION} transactions on, below that it is noise);</li>
 *   <li>{@code near_threshold_share}: share of amounts within {@value #NEAR_BAND} below a reporting threshold
 *   ({@link #REPORTING_THRESHOLDS}) — structuring;</li>
 *   <li>{@code foreign_card_share}: share of transactions paid with a card issued in another country than the buyer's
 *   (the transaction's country) — triangulation uses stolen cards from abroad.</li>
 * </ul>
 * Shares need at least {@value #MIN_TRANSACTIONS} transactions.
 */
public final class TradingPatterns {

  public static final int MIN_TRANSACTIONS = 5;
  public static final int MIN_FOR_CONCENTRATION = 10;
  public static final int TOP_BUYERS = 3;
  public static final double ROUND_UNIT = 10.0;
  public static final double NEAR_BAND = 0.10;
  /** The common cash/transaction reporting threshold (10,000 in USD, EUR, GBP, CAD and most others). */
  public static final List<Double> REPORTING_THRESHOLDS = List.of(10_000.0);
  static final int MAX_EXAMPLES = 5;

  private TradingPatterns() {
  }

  /** {@code {items: [...], signals: {name: value}}} over the transactions (bodies with amount, buyerId, countries). */
  public static JsonObject of(List<JsonObject> transactions) {
    List<JsonObject> txs = new ArrayList<>(transactions);
    txs.sort(Comparator.comparing((JsonObject t) -> String.valueOf(t.getString("at"))));
    int n = txs.size();
    JsonArray items = new JsonArray();
    JsonObject signals = new JsonObject().put("transactions", n);
    share(items, signals, "round_amount_share", txs, n >= MIN_TRANSACTIONS, TradingPatterns::round,
        "amounts that are whole multiples of " + (int) ROUND_UNIT);
    concentration(items, signals, txs);
    share(items, signals, "near_threshold_share", txs, n >= MIN_TRANSACTIONS, TradingPatterns::nearThreshold,
        "amounts within " + (int) (100 * NEAR_BAND) + "% below a reporting threshold " + REPORTING_THRESHOLDS);
    List<JsonObject> withCountries = txs.stream().filter(t -> t.getString("cardCountry") != null
        && t.getString("country") != null).toList();
    share(items, signals, "foreign_card_share", withCountries, withCountries.size() >= MIN_TRANSACTIONS,
        t -> !t.getString("cardCountry").equalsIgnoreCase(t.getString("country")),
        "cards issued in another country than the buyer's");
    for (int i = 0; i < items.size(); i++) {
      items.getJsonObject(i).put("cite", "[source:trading_patterns:" + i + "]");
    }
    return new JsonObject().put("items", items).put("signals", signals);
  }

  static boolean round(JsonObject t) {
    double a = amount(t);
    return a >= ROUND_UNIT && Math.abs(a / ROUND_UNIT - Math.rint(a / ROUND_UNIT)) < 1e-9;
  }

  static boolean nearThreshold(JsonObject t) {
    double a = amount(t);
    return REPORTING_THRESHOLDS.stream().anyMatch(th -> a < th && a >= th * (1 - NEAR_BAND));
  }

  private static double amount(JsonObject t) {
    return t.getValue("amount") instanceof Number n ? n.doubleValue() : 0;
  }

  private static void share(JsonArray items, JsonObject signals, String name, List<JsonObject> txs, boolean enough,
                            java.util.function.Predicate<JsonObject> test, String what) {
    JsonObject item = new JsonObject().put("signal", name).put("what", what).put("of", txs.size());
    if (!enough) {
      items.add(item.put("status", "unknown").put("reason", "fewer than " + MIN_TRANSACTIONS + " transactions"));
      signals.putNull(name);
      return;
    }
    JsonArray examples = new JsonArray();
    int count = 0;
    for (JsonObject t : txs) {
      if (test.test(t)) {
        count++;
        if (examples.size() < MAX_EXAMPLES) {
          examples.add(new JsonObject().put("transactionId", t.getString("id")).put("at", t.getString("at"))
              .put("amount", t.getValue("amount")).put("currency", t.getString("currency"))
              .put("cardCountry", t.getString("cardCountry")).put("country", t.getString("country")));
        }
      }
    }
    double value = ratio(count, txs.size());
    items.add(item.put("status", "known").put("value", value).put("count", count).put("examples", examples));
    signals.put(name, value);
  }

  private static void concentration(JsonArray items, JsonObject signals, List<JsonObject> txs) {
    String name = "top_buyers_share";
    JsonObject item = new JsonObject().put("signal", name).put("what", "transactions from the " + TOP_BUYERS
        + " most frequent buyers").put("of", txs.size());
    if (txs.size() < MIN_FOR_CONCENTRATION) {
      items.add(item.put("status", "unknown").put("reason", "fewer than " + MIN_FOR_CONCENTRATION + " transactions"));
      signals.putNull(name);
      return;
    }
    Map<String, Integer> byBuyer = new HashMap<>();
    for (JsonObject t : txs) {
      String b = t.getString("buyerId");
      if (b != null) {
        byBuyer.merge(b, 1, Integer::sum);
      }
    }
    List<Map.Entry<String, Integer>> top = byBuyer.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(TOP_BUYERS).toList();
    int count = top.stream().mapToInt(Map.Entry::getValue).sum();
    JsonArray buyers = new JsonArray();
    top.forEach(e -> buyers.add(new JsonObject().put("buyerId", e.getKey()).put("transactions", e.getValue())
        .put("entity", "[entity:buyer:" + e.getKey() + "]")));
    double value = ratio(count, txs.size());
    items.add(item.put("status", "known").put("value", value).put("count", count).put("distinctBuyers", byBuyer.size())
        .put("topBuyers", buyers));
    signals.put(name, value);
  }

  private static double ratio(int count, int of) {
    return of == 0 ? 0 : Math.round(10_000.0 * count / of) / 10_000.0;
  }

  /** ISO instant of epoch milliseconds (for the tool's window). */
  static String iso(long ms) {
    return Instant.ofEpochMilli(ms).toString();
  }
}
