package dev.argus.decide.tools;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trading-pattern signals as a pure function, every figure counted by hand. */
class TradingPatternsTest {

  static JsonObject tx(String id, int day, double amount, String buyer, String card, String country) {
    return new JsonObject().put("id", id).put("at", String.format("2025-05-%02dT10:00:00Z", day)).put("amount", amount)
        .put("currency", "USD").put("buyerId", buyer).put("cardCountry", card).put("country", country);
  }

  static JsonObject item(JsonObject out, String signal) {
    return out.getJsonArray("items").stream().map(o -> (JsonObject) o).filter(i -> signal.equals(i.getString("signal")))
        .findFirst().orElseThrow();
  }

  @Test
  void sharesOverTwelveTransactions() {
    List<JsonObject> txs = new ArrayList<>();
    // 12 transactions: amounts 400, 250, 9500, 9990 (2 round: 400 and 250; 9990 is round too: 999 * 10 -> 3 round);
    // near the 10,000 threshold (9,000 <= a < 10,000): 9500 and 9990 -> 2
    txs.add(tx("T1", 1, 400, "B1", "US", "US"));
    txs.add(tx("T2", 2, 250, "B1", "US", "US"));
    txs.add(tx("T3", 3, 9500.5, "B1", "GB", "US"));
    txs.add(tx("T4", 4, 9990, "B2", "US", "US"));
    // 8 more from 8 distinct buyers, ordinary amounts, 1 foreign card
    for (int i = 0; i < 8; i++) {
      txs.add(tx("T" + (5 + i), 5 + i, 23.45 + i, "C" + i, i == 0 ? "FR" : "US", "US"));
    }
    JsonObject out = TradingPatterns.of(txs);
    JsonObject s = out.getJsonObject("signals");
    assertEquals(12, s.getInteger("transactions"));
    // round: 400, 250, 9990 -> 3 / 12 = 0.25
    assertEquals(0.25, s.getDouble("round_amount_share"), 1e-9);
    // near threshold: 9500.5, 9990 -> 2 / 12 = 0.1667
    assertEquals(0.1667, s.getDouble("near_threshold_share"), 1e-9);
    // foreign cards: T3 (GB for US) and T5 (FR for US) -> 2 / 12 = 0.1667
    assertEquals(0.1667, s.getDouble("foreign_card_share"), 1e-9);
    // top 3 buyers: B1 (3), B2 (1), then C0 (1, first by id) -> 5 / 12 = 0.4167
    assertEquals(0.4167, s.getDouble("top_buyers_share"), 1e-9);
    JsonObject top = item(out, "top_buyers_share");
    assertEquals("B1", top.getJsonArray("topBuyers").getJsonObject(0).getString("buyerId"));
    assertEquals(10, top.getInteger("distinctBuyers"));
    JsonObject near = item(out, "near_threshold_share");
    assertEquals(2, near.getInteger("count"));
    assertEquals("T3", near.getJsonArray("examples").getJsonObject(0).getString("transactionId"));
    assertTrue(near.getString("cite").startsWith("[source:trading_patterns:"));
  }

  @Test
  void tooFewTransactionsAreUnknownNotZero() {
    List<JsonObject> txs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      txs.add(tx("T" + i, 1 + i, 500, "B" + i, "US", "US"));
    }
    JsonObject out = TradingPatterns.of(txs);
    // 4 round amounts, but fewer than 5 transactions: unknown (null), with the reason
    assertTrue(out.getJsonObject("signals").containsKey("round_amount_share"));
    assertEquals(null, out.getJsonObject("signals").getValue("round_amount_share"));
    assertEquals("unknown", item(out, "round_amount_share").getString("status"));
    // 5 transactions: shares known; concentration still unknown below 10
    txs.add(tx("T9", 9, 12.34, "B9", "US", "US"));
    JsonObject five = TradingPatterns.of(txs);
    assertEquals(0.8, five.getJsonObject("signals").getDouble("round_amount_share"), 1e-9);
    assertEquals(null, five.getJsonObject("signals").getValue("top_buyers_share"));
  }
}
