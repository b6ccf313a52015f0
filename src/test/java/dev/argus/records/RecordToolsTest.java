package dev.argus.records;

import dev.argus.agent.tools.EvidenceItem;
import dev.argus.agent.tools.RecordTools;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.records.RecordFixtures.item;
import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three record tools through the real tool executor, the records verticle and a real SQLite store holding the
 * hand-made world of {@link RecordFixtures#handWorld()}; every expected number is computed by hand in the comments.
 */
class RecordToolsTest {

  private static Vertx vertx;
  private static Database db;
  private static ToolExecutor tools;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
    RecordStore store = RecordStores.create(db);
    await(store.upsert(RecordFixtures.records(RecordFixtures.handWorld())));
    await(vertx.deployVerticle(new RecordsVerticle(conf.records(), store, RecordFixtures.VALIDATOR)));
    tools = new ToolExecutor(vertx, RecordTools.all(vertx, 10_000), new ToolExecutor.Settings(10_000, 0, 10, 5,
        10_000));
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
  }

  private static JsonObject call(String tool, JsonObject params) {
    EvidenceItem e = await(tools.call(0, tool, params));
    assertTrue(e.success(), tool + " failed: " + e.error());
    return e.data();
  }

  private static String error(String tool, JsonObject params) {
    EvidenceItem e = await(tools.call(0, tool, params));
    assertFalse(e.success(), tool + " should have failed for " + params);
    return e.error();
  }

  @Test
  void transactionHistoryHandComputed() {
    JsonObject r = call("transaction_history", new JsonObject().put("sellerId", "S-1"));
    JsonObject velocity = item(r, 0);
    assertEquals("[source:transaction_history:0]", velocity.getString("cite"));
    // no asOf: the window ends at the latest transaction, T-6 at 2025-03-10T10:00Z
    assertEquals("2025-03-10T10:00:00Z", velocity.getString("windowEnd"));
    assertEquals("lastTransaction", velocity.getString("windowEndSource"));
    JsonArray w = velocity.getJsonArray("windows");
    // 1h and 24h: T-6 only (300); 7d = (03-03T10:00, 03-10T10:00]: T-4, T-5, T-6 = 105 + 95 + 300 = 500
    // (T-3 sits exactly on the excluded start); 30d: all six = 800
    assertWindow(w.getJsonObject(0), "1h", 1, 300.0);
    assertWindow(w.getJsonObject(1), "24h", 1, 300.0);
    assertWindow(w.getJsonObject(2), "7d", 3, 500.0);
    assertWindow(w.getJsonObject(3), "30d", 6, 800.0);
    // baseline: T-1..T-5 in the 90 days before the last 24 hours = 5 / 90 = 0.0556 per day; ratio 1 / (5/90) = 18
    assertEquals(0.0556, velocity.getDouble("baselinePerDay"));
    assertEquals(18.0, velocity.getDouble("ratio24hToBaseline"));

    JsonObject z = item(r, 1);
    // history before T-6: 100, 110, 90, 105, 95 -> mean 100; squared deviations 0+100+100+25+25 = 250;
    // sample sd = sqrt(250 / 4) = 7.90569; z = (300 - 100) / 7.90569 = 25.2982
    assertEquals("known", z.getString("status"));
    assertEquals("T-6", z.getString("transactionId"));
    assertEquals(5, z.getInteger("historyCount"));
    assertEquals(100.0, z.getDouble("mean"));
    assertEquals(7.9057, z.getDouble("stdDev"));
    assertEquals(25.2982, z.getDouble("zScore"));

    // 90 days to 03-10T10:00: 6 transactions worth 800; refund R-1 of 110 -> 1/6 = 0.1667, 110/800 = 0.1375;
    // chargeback CB-1 of 90 -> 1/6, 90/800 = 0.1125. R-9 refunds S-2's transaction and does not count.
    JsonObject refunds = item(r, 2);
    assertEquals("refund_ratio", refunds.getString("signal"));
    assertEquals(6, refunds.getInteger("transactions"));
    assertEquals(1, refunds.getInteger("count"));
    assertEquals(0.1667, refunds.getDouble("ratio"));
    assertEquals(0.1375, refunds.getDouble("amountRatio"));
    JsonObject chargebacks = item(r, 3);
    assertEquals(0.1667, chargebacks.getDouble("ratio"));
    assertEquals(0.1125, chargebacks.getDouble("amountRatio"));
  }

  @Test
  void transactionHistoryAsOfSeesOnlyThePast() {
    JsonObject r = call("transaction_history", new JsonObject().put("sellerId", "S-1").put("asOf",
        "2025-03-06T00:00:00Z"));
    JsonObject velocity = item(r, 0);
    assertEquals("asOf", velocity.getString("windowEndSource"));
    JsonArray w = velocity.getJsonArray("windows");
    assertWindow(w.getJsonObject(0), "1h", 0, null);
    assertWindow(w.getJsonObject(1), "24h", 1, 95.0); // T-5 at 03-05T10:00
    assertWindow(w.getJsonObject(2), "7d", 5, 500.0);
    // baseline: T-1..T-4 before 03-05T00:00 -> 4/90 = 0.0444; ratio 1 / (4/90) = 22.5
    assertEquals(0.0444, velocity.getDouble("baselinePerDay"));
    assertEquals(22.5, velocity.getDouble("ratio24hToBaseline"));
    JsonObject z = item(r, 1);
    assertEquals("unknown", z.getString("status"), "T-5 has only 4 earlier transactions");
    assertEquals(4, z.getInteger("historyCount"));
    assertNull(z.getValue("zScore"));
    // R-1 (03-05T12:00) is known by then: 1 of 5 = 0.2, 110/500 = 0.22; CB-1 (03-08) is not: 0
    assertEquals(0.2, item(r, 2).getDouble("ratio"));
    assertEquals(0.22, item(r, 2).getDouble("amountRatio"));
    assertEquals(0, item(r, 3).getInteger("count"));
    assertEquals(0.0, item(r, 3).getDouble("ratio"));
    JsonObject given = call("transaction_history", new JsonObject().put("sellerId", "S-1").put("transactionId", "T-2"));
    assertEquals("unknown", item(given, 1).getString("status"), "T-2 has one earlier transaction");
  }

  /** The transaction's buyer's refunds and chargebacks, counted as of the decision time (none later). */
  @Test
  void transactionHistoryReportsTheBuyersRefundsAsOfTheTransaction() {
    JsonObject r = call("transaction_history", new JsonObject().put("sellerId", "S-1").put("transactionId", "T-6")
        .put("asOf", "2025-03-10T10:00:00Z"));
    JsonObject buyer = item(r, 4);
    assertEquals("[source:transaction_history:4]", buyer.getString("cite"));
    assertEquals("buyer_refund_ratio", buyer.getString("signal"));
    assertEquals("[entity:buyer:B-1]", buyer.getString("entity"));
    // B-1's purchases other than T-6 by 03-10T10:00: T-1..T-5 = 5; R-1 (on T-2, 03-05) and CB-1 (on T-3, 03-08)
    // are known by then: 2 of 5 = 0.4. R-9 refunds T-9, which B-1 did not buy.
    assertEquals(5, buyer.getInteger("transactions"));
    assertEquals(1, buyer.getInteger("refunds"));
    assertEquals(1, buyer.getInteger("chargebacks"));
    assertEquals(0.4, buyer.getDouble("ratio"));
    JsonObject before = item(call("transaction_history", new JsonObject().put("sellerId", "S-1")
        .put("transactionId", "T-5").put("asOf", "2025-03-06T00:00:00Z")), 4);
    // by 03-06T00:00: T-1..T-4 (T-5 is the one decided); R-1 (03-05T12:00) known, CB-1 (03-08) not: 1 of 4
    assertEquals(4, before.getInteger("transactions"));
    assertEquals(0, before.getInteger("chargebacks"));
    assertEquals(0.25, before.getDouble("ratio"));
    JsonObject first = item(call("transaction_history", new JsonObject().put("sellerId", "S-1")
        .put("transactionId", "T-1").put("asOf", "2025-03-01T10:00:00Z")), 4);
    assertEquals("unknown", first.getString("status"), "no earlier purchase: nothing to compare");
    assertEquals(4, call("transaction_history", new JsonObject().put("sellerId", "S-1")).getJsonArray("items")
        .size(), "without a transaction there is no buyer");
    assertTrue(error("transaction_history", new JsonObject().put("sellerId", "S-1").put("transactionId", "T-9"))
        .startsWith("404"), "T-9 is S-2's");
    assertTrue(error("transaction_history", new JsonObject().put("sellerId", "S-1").put("transactionId", "T-6")
        .put("asOf", "2025-03-09T00:00:00Z")).startsWith("404"), "T-6 did not exist yet");
  }

  private static void assertWindow(JsonObject w, String name, int count, Double eur) {
    assertEquals(name, w.getString("window"));
    assertEquals(count, w.getInteger("count"));
    assertEquals(eur, w.getJsonObject("amount").getDouble("EUR"));
  }

  @Test
  void sellerProfileAsOf() {
    JsonObject r = call("seller_profile", new JsonObject().put("sellerId", "S-1").put("asOf", "2025-03-10T12:00:00Z"));
    JsonObject app = item(r, 0);
    assertEquals("[source:seller_profile:0]", app.getString("cite"));
    assertEquals("[entity:seller:S-1]", app.getString("entity"));
    // 2025-01-01T00:00 to 2025-03-10T12:00 = 31 + 28 + 9 days and 12 hours = 68 whole days
    assertEquals(68, app.getInteger("accountAgeDays"));
    assertEquals("shop.example", app.getString("emailDomain"));
    assertEquals("shop-one.example", app.getString("websiteDomain"));
    assertEquals("3000", app.getString("bankAccountLast4"));
    assertFalse(app.containsKey("status"), "a status has no time: withheld as of a time");
    assertTrue(app.getJsonObject("unknown").containsKey("domainAgeDays"), "no domain age without data");
    JsonObject activity = item(r, 1);
    assertEquals(6, activity.getInteger("transactions"));
    assertEquals(2, activity.getInteger("payouts"));
    assertEquals(350.0, activity.getJsonObject("payoutTotals").getDouble("EUR"));
    assertEquals(1, activity.getInteger("payoutAccountsNotRegistered"), "P-2 went to another account");
    JsonObject events = item(r, 2);
    assertEquals(1, events.getInteger("count"));
    assertEquals(1, events.getJsonObject("bySeverity").getInteger("medium"));
    JsonObject cases = item(r, 3);
    assertEquals(1, cases.getInteger("count"));
    assertEquals("pending", cases.getJsonArray("cases").getJsonObject(0).getString("outcome"),
        "closed as fraud on 20 March: still pending on the 10th");
    JsonObject now = call("seller_profile", new JsonObject().put("sellerId", "S-1"));
    assertEquals("active", item(now, 0).getString("status"));
    assertEquals("fraud", item(now, 3).getJsonArray("cases").getJsonObject(0).getString("outcome"));
    assertTrue(error("seller_profile", new JsonObject().put("sellerId", "S-1").put("asOf", "2024-12-01T00:00:00Z"))
        .startsWith("404"), "the seller did not exist yet");
    assertTrue(error("seller_profile", new JsonObject().put("sellerId", "B-1")).startsWith("404"));
  }

  @Test
  void watchlistMatchHandComputed() {
    JsonObject r = call("watchlist_match", new JsonObject().put("sellerId", "S-1"));
    JsonArray items = r.getJsonArray("items");
    // exact: e-mail (W-2, case-insensitive), bank account of payout P-2 (W-4, by fingerprint), website domain (W-6);
    // range: 203.0.113.7 in 203.0.113.0/24 (W-3); fuzzy: "jonas marlowe" vs "jonas marlow": shared trigrams 12 of
    // 13 + 14 -> 12 / (13 + 14 - 12) = 0.8 (W-1). "Marlowe Prints" scores 6 / 22 = 0.27, below 0.45.
    assertEquals(List.of("W-2", "W-4", "W-6", "W-3", "W-1"), items.stream().limit(5)
        .map(o -> ((JsonObject) o).getString("entryId")).toList());
    assertEquals(List.of("exact", "exact", "exact", "range", "fuzzy"), items.stream().limit(5)
        .map(o -> ((JsonObject) o).getString("match")).toList());
    assertEquals(0.8, items.getJsonObject(4).getDouble("similarity"));
    assertNull(items.getJsonObject(1).getString("entryValue"), "no account number in the evidence");
    JsonObject summary = items.getJsonObject(5);
    assertEquals("summary", summary.getString("type"));
    assertEquals(5, summary.getInteger("hits"));
    assertEquals(2, summary.getJsonObject("checked").getInteger("bank_account"));
    assertEquals("[source:watchlist_match:5]", summary.getString("cite"));

    JsonObject before = call("watchlist_match", new JsonObject().put("sellerId", "S-1").put("asOf",
        "2025-03-08T00:00:00Z"));
    assertTrue(before.getJsonArray("items").stream().noneMatch(o -> "W-4".equals(((JsonObject) o).getString("entryId"))),
        "P-2 to the watched account was paid on 9 March");

    JsonObject explicit = call("watchlist_match", new JsonObject().put("names", new JsonArray().add("Completely "
        + "Diferent Person")).put("ips", new JsonArray().add("192.0.2.1")));
    // "completely diferent person" vs "completely different person": completely 11 + person 7 shared;
    // diferent has 9 trigrams, different 10, 8 shared -> 26 / (27 + 28 - 26) = 0.8966
    assertEquals("W-5", item(explicit, 0).getString("entryId"));
    assertEquals(0.8966, item(explicit, 0).getDouble("similarity"));
    assertEquals(1, item(explicit, 1).getInteger("hits"));
  }

  @Test
  void schemasRejectBadParameters() {
    assertTrue(error("seller_profile", new JsonObject()).contains("invalid parameters"));
    assertTrue(error("seller_profile", new JsonObject().put("sellerId", "S 1")).contains("invalid parameters"));
    assertTrue(error("seller_profile", new JsonObject().put("sellerId", "S-1").put("extra", 1))
        .contains("invalid parameters"));
    assertTrue(error("transaction_history", new JsonObject().put("sellerId", 5)).contains("invalid parameters"));
    assertTrue(error("transaction_history", new JsonObject().put("sellerId", "S-1").put("asOf", "yesterday"))
        .contains("invalid parameters"));
    assertTrue(error("watchlist_match", new JsonObject()).contains("invalid parameters"));
    assertTrue(error("watchlist_match", new JsonObject().put("asOf", "2025-03-08T00:00:00Z"))
        .contains("invalid parameters"), "something to check is required");
    assertTrue(error("watchlist_match", new JsonObject().put("sellerId", "S-1").put("minSimilarity", 0.1))
        .contains("invalid parameters"));
    assertTrue(error("watchlist_match", new JsonObject().put("bankAccountFps", new JsonArray()
        .add(RecordFixtures.ACCOUNT))).contains("invalid parameters"), "raw account numbers are refused");
    assertTrue(error("watchlist_match", new JsonObject().put("names", new JsonArray().add(""))).contains("invalid"));
    assertTrue(tools.validate("transaction_history", new JsonObject().put("sellerId", "S-1").put("asOf",
        "2025-03-06T00:00:00+01:00")).isEmpty(), "offsets are fine");
  }
}
