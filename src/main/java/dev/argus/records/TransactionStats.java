package dev.argus.records;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The signals of {@code transaction_history}, as pure functions of a seller's stored transactions and reversals (all
 * at or before the window end {@code end}). Each signal is one evidence item {@code {signal, status: known|unknown,
 * ...}}; a signal without enough data says {@code unknown} and why, never a made-up number.
 * <ul>
 *   <li>velocity: count and amount per currency of transactions in the windows 1h, 24h, 7d, 30d ending at {@code end};
 *   baseline = transactions per day over the {@value #BASELINE_DAYS} days before the 24h window; ratio = 24h count /
 *   baseline (unknown without baseline);</li>
 *   <li>amount z-score of the target transaction (the given one, else the latest): (amount − mean) / sample standard
 *   deviation of the seller's earlier transactions in the same currency within {@value #HISTORY_DAYS} days; unknown with
 *   fewer than {@value #MIN_HISTORY} of them or no spread;</li>
 *   <li>refund and chargeback ratios over the {@value #RATIO_DAYS} days ending at {@code end}: reversals dated in the
 *   window / transactions dated in the window (count and amount); unknown without transactions;</li>
 *   <li>the buyer's refund ratio (with a transaction): see {@link #buyerRefundRatio}.</li>
 * </ul>
 */
public final class TransactionStats {

  public static final int BASELINE_DAYS = 90;
  public static final int HISTORY_DAYS = 365;
  public static final int MIN_HISTORY = 5;
  public static final int RATIO_DAYS = 90;
  public static final int BUYER_DAYS = 180;
  static final Map<String, Duration> WINDOWS = windows();

  private TransactionStats() {
  }

  private static Map<String, Duration> windows() {
    Map<String, Duration> w = new LinkedHashMap<>();
    w.put("1h", Duration.ofHours(1));
    w.put("24h", Duration.ofHours(24));
    w.put("7d", Duration.ofDays(7));
    w.put("30d", Duration.ofDays(30));
    return w;
  }

  /** A transaction reduced to what the signals need. */
  public record Tx(String id, long at, double amount, String currency) {
    public static Tx of(JsonObject body) {
      return new Tx(body.getString("id"), AsOf.eventTime(body), body.getDouble("amount"), body.getString("currency"));
    }
  }

  /** A refund or chargeback ({@code kind}) reduced like a transaction (no currency). */
  public record Reversal(String kind, Tx tx) {
  }

  /** A seller's transaction count and first and last transaction times (epoch ms; null without transactions). */
  public record Span(long count, Long firstAt, Long lastAt) {
  }

  /** A buyer's purchases in a window and the refunds and chargebacks of them known by the window's end. */
  public record BuyerHistory(long purchases, long refunds, long chargebacks) {
  }

  /**
   * {@code buyer_refund_ratio}: the transaction's buyer's refunds and chargebacks over its other purchases of the
   * {@value #BUYER_DAYS} days up to the decision time (both counted as of that time); unknown without earlier purchases.
   */
  public static JsonObject buyerRefundRatio(String buyerId, BuyerHistory h) {
    JsonObject item = new JsonObject().put("signal", "buyer_refund_ratio").put("buyerId", buyerId)
        .put("entity", "[entity:buyer:" + buyerId + "]").put("windowDays", BUYER_DAYS)
        .put("transactions", h.purchases()).put("refunds", h.refunds()).put("chargebacks", h.chargebacks())
        .put("count", h.refunds() + h.chargebacks());
    if (h.purchases() == 0) {
      return item.put("status", "unknown").put("reason", "the buyer has no earlier purchases in the " + BUYER_DAYS
          + "-day window");
    }
    return item.put("status", "known").put("ratio", round((double) (h.refunds() + h.chargebacks()) / h.purchases()));
  }

  public static JsonObject velocity(List<Tx> txs, long end) {
    JsonArray windows = new JsonArray();
    long day24Start = end - Duration.ofHours(24).toMillis();
    for (Map.Entry<String, Duration> w : WINDOWS.entrySet()) {
      long start = end - w.getValue().toMillis();
      int count = 0;
      Map<String, Double> amounts = new LinkedHashMap<>();
      for (Tx t : txs) {
        if (t.at() > start && t.at() <= end) {
          count++;
          amounts.merge(t.currency(), t.amount(), Double::sum);
        }
      }
      JsonObject sums = new JsonObject();
      amounts.forEach((c, a) -> sums.put(c, round(a)));
      windows.add(new JsonObject().put("window", w.getKey()).put("count", count).put("amount", sums));
    }
    long baseStart = day24Start - Duration.ofDays(BASELINE_DAYS).toMillis();
    long baseline = txs.stream().filter(t -> t.at() > baseStart && t.at() <= day24Start).count();
    long last24 = txs.stream().filter(t -> t.at() > day24Start && t.at() <= end).count();
    JsonObject item = new JsonObject().put("signal", "velocity").put("status", "known").put("windows", windows);
    if (baseline == 0) {
      return item.put("baselinePerDay", 0.0).put("ratio24hToBaseline", null)
          .put("ratioUnknown", "no transactions in the " + BASELINE_DAYS + " days before the last 24 hours");
    }
    double perDay = (double) baseline / BASELINE_DAYS;
    return item.put("baselinePerDay", round(perDay)).put("ratio24hToBaseline", round(last24 / perDay));
  }

  /** The z-score of {@code target} against earlier transactions of the same seller and currency. */
  public static JsonObject amountZScore(List<Tx> txs, Tx target) {
    JsonObject item = new JsonObject().put("signal", "amount_zscore");
    if (target == null) {
      return item.put("status", "unknown").put("reason", "the seller has no transactions in the window");
    }
    long from = target.at() - Duration.ofDays(HISTORY_DAYS).toMillis();
    List<Double> history = new ArrayList<>();
    for (Tx t : txs) {
      boolean earlier = t.at() < target.at() || (t.at() == target.at() && t.id().compareTo(target.id()) < 0);
      if (earlier && t.at() >= from && t.currency().equals(target.currency()) && !t.id().equals(target.id())) {
        history.add(t.amount());
      }
    }
    item.put("transactionId", target.id()).put("amount", target.amount()).put("currency", target.currency())
        .put("historyCount", history.size());
    if (history.size() < MIN_HISTORY) {
      return item.put("status", "unknown").put("reason", "fewer than " + MIN_HISTORY + " earlier transactions in "
          + target.currency() + " within " + HISTORY_DAYS + " days");
    }
    double mean = history.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double ss = history.stream().mapToDouble(a -> (a - mean) * (a - mean)).sum();
    double sd = Math.sqrt(ss / (history.size() - 1));
    item.put("mean", round(mean)).put("stdDev", round(sd));
    if (sd == 0) {
      return item.put("status", "unknown").put("reason", "every earlier amount is the same (no spread)");
    }
    return item.put("status", "known").put("zScore", round((target.amount() - mean) / sd));
  }

  /** Refund or chargeback ratio ({@code signal}) of the reversals of that kind over the ratio window. */
  public static JsonObject ratio(String signal, List<Tx> txs, List<Tx> reversals, long end) {
    long start = end - Duration.ofDays(RATIO_DAYS).toMillis();
    List<Tx> inTx = txs.stream().filter(t -> t.at() > start && t.at() <= end).toList();
    List<Tx> inRev = reversals.stream().filter(t -> t.at() > start && t.at() <= end).toList();
    JsonObject item = new JsonObject().put("signal", signal).put("windowDays", RATIO_DAYS)
        .put("transactions", inTx.size()).put("count", inRev.size());
    if (inTx.isEmpty()) {
      return item.put("status", "unknown").put("reason", "no transactions in the " + RATIO_DAYS + "-day window");
    }
    double txAmount = inTx.stream().mapToDouble(Tx::amount).sum();
    double revAmount = inRev.stream().mapToDouble(Tx::amount).sum();
    return item.put("status", "known").put("ratio", round((double) inRev.size() / inTx.size()))
        .put("amountRatio", round(revAmount / txAmount));
  }

  static double round(double v) {
    return Math.round(v * 10_000.0) / 10_000.0;
  }

  static String iso(long ms) {
    return Instant.ofEpochMilli(ms).toString();
  }
}
