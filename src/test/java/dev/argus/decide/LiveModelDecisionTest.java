package dev.argus.decide;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.BlockedThreadGuard;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipped scoring models ({@code conf/scoring}, combine {@code accumulate}) on the running service (real SQLite
 * file, records, graph, HTTP): the new signals measured as of the decision time — a shared payout account found by
 * {@code identifier_sharing}, amounts just under the reporting threshold found by {@code trading_patterns} — each
 * cited, with the risk computed by hand. Records dated after {@code asOf} (a third seller's payout to the shared
 * account, a later round-sum sale) must not move any figure.
 */
@ExtendWith(BlockedThreadGuard.class)
class LiveModelDecisionTest {

  static final String AS_OF = "2025-06-01T00:00:00Z";
  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  static String world() {
    StringBuilder b = new StringBuilder();
    b.append("""
        {"kind":"seller","id":"S-M1","createdAt":"2024-01-01T00:00:00Z","legalName":"Mira One","email":"mira@one.example","country":"GB","bankAccount":"GB00TEST0000000001","status":"active"}
        {"kind":"seller","id":"S-M2","createdAt":"2024-01-01T00:00:00Z","legalName":"Milo Two","email":"milo@two.example","country":"GB","bankAccount":"GB00TEST0000000002","status":"active"}
        {"kind":"seller","id":"S-M3","createdAt":"2024-01-01T00:00:00Z","legalName":"Mona Three","email":"mona@three.example","country":"GB","bankAccount":"GB00TEST0000000003","status":"active"}
        {"kind":"seller","id":"S-ST","createdAt":"2024-01-01T00:00:00Z","legalName":"Stan Under","email":"stan@under.example","country":"US","bankAccount":"US00TEST0000000009","status":"active"}
        {"kind":"payout","id":"P-M1","at":"2025-05-06T00:00:00Z","sellerId":"S-M1","bankAccount":"GB00TEST0000000001","amount":100,"currency":"GBP"}
        {"kind":"payout","id":"P-M2","at":"2025-05-07T00:00:00Z","sellerId":"S-M2","bankAccount":"GB00TEST0000000001","amount":100,"currency":"GBP"}
        {"kind":"payout","id":"P-M3","at":"2025-06-10T00:00:00Z","sellerId":"S-M3","bankAccount":"GB00TEST0000000001","amount":100,"currency":"GBP"}
        {"kind":"transaction","id":"T-M1-LATE","at":"2025-06-05T10:00:00Z","sellerId":"S-M1","buyerId":"B-9","amount":500,"currency":"GBP","cardCountry":"GB","country":"GB","status":"approved"}
        """);
    // a promotion batch: three new buyers on one device buy from the clean seller S-CL within hours; a fourth buyer
    // on that device opens the next day, after the transaction decided
    b.append("""
        {"kind":"seller","id":"S-CL","createdAt":"2024-01-01T00:00:00Z","legalName":"Clara Clean","email":"clara@clean.example","country":"DE","bankAccount":"DE00TEST0000000007","status":"active"}
        {"kind":"buyer","id":"B-P1","createdAt":"2025-05-20T08:00:00Z","name":"Pat One","email":"pat+1@promo.example","deviceIds":["dev-promo-0001"],"ips":["203.0.113.11"]}
        {"kind":"buyer","id":"B-P2","createdAt":"2025-05-20T08:30:00Z","name":"Pat Two","email":"pat+2@promo.example","deviceIds":["dev-promo-0001"],"ips":["203.0.113.12"]}
        {"kind":"buyer","id":"B-P3","createdAt":"2025-05-20T09:00:00Z","name":"Pat Three","email":"pat+3@promo.example","deviceIds":["dev-promo-0001"],"ips":["203.0.113.13"]}
        {"kind":"buyer","id":"B-P4","createdAt":"2025-05-21T09:00:00Z","name":"Pat Four","email":"pat+4@promo.example","deviceIds":["dev-promo-0001"],"ips":["203.0.113.14"]}
        {"kind":"transaction","id":"T-P1","at":"2025-05-20T10:00:00Z","sellerId":"S-CL","buyerId":"B-P1","amount":12.99,"currency":"EUR","cardCountry":"DE","country":"DE","status":"approved"}
        {"kind":"transaction","id":"T-P2","at":"2025-05-20T11:00:00Z","sellerId":"S-CL","buyerId":"B-P2","amount":12.99,"currency":"EUR","cardCountry":"DE","country":"DE","status":"approved"}
        {"kind":"transaction","id":"T-P3","at":"2025-05-20T12:00:00Z","sellerId":"S-CL","buyerId":"B-P3","amount":12.99,"currency":"EUR","cardCountry":"DE","country":"DE","status":"approved"}
        """);
    for (int i = 0; i < 5; i++) {
      b.append(String.format(java.util.Locale.ROOT, "{\"kind\":\"transaction\",\"id\":\"T-CL-%d\",\"at\":\"2025-05-0%dT10:00:00Z\","
          + "\"sellerId\":\"S-CL\",\"buyerId\":\"B-C%d\",\"amount\":%.2f,\"currency\":\"EUR\",\"cardCountry\":\"DE\","
          + "\"country\":\"DE\",\"status\":\"approved\"}%n", i, i + 1, i, 25.10 + i));
    }
    double[] structured = {9612.40, 9700.10, 9850.75, 9920.30, 9555.55};
    for (int i = 0; i < 5; i++) {
      b.append(String.format(java.util.Locale.ROOT, "{\"kind\":\"transaction\",\"id\":\"T-M1-%d\",\"at\":\"2025-05-0%dT10:00:00Z\","
          + "\"sellerId\":\"S-M1\",\"buyerId\":\"B-%d\",\"amount\":%.2f,\"currency\":\"GBP\",\"cardCountry\":\"GB\","
          + "\"country\":\"GB\",\"status\":\"approved\"}%n", i, i + 1, i, 23.45 + i));
      b.append(String.format(java.util.Locale.ROOT, "{\"kind\":\"transaction\",\"id\":\"T-ST-%d\",\"at\":\"2025-05-1%dT10:00:00Z\","
          + "\"sellerId\":\"S-ST\",\"buyerId\":\"B-%d\",\"amount\":%.2f,\"currency\":\"USD\",\"cardCountry\":\"US\","
          + "\"country\":\"US\",\"status\":\"approved\"}%n", i, i, 10 + i, structured[i]));
    }
    return b.toString();
  }

  @BeforeAll
  static void start() {
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("feedback", "applyCalibration", false);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    HttpResponse<Buffer> load = await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(world())));
    assertEquals(201, load.statusCode(), load.bodyAsString());
    assertEquals(0, load.bodyAsJsonObject().getInteger("failed"), load.bodyAsString());
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static JsonObject onboard(String sellerId) {
    HttpResponse<Buffer> r = await(client.post("/api/decisions/onboarding").putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("sellerId", sellerId).put("asOf", AS_OF)));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  static JsonObject signal(JsonObject d, String name) {
    return d.getJsonArray("signals").stream().map(o -> (JsonObject) o).filter(s -> name.equals(s.getString("name")))
        .findFirst().orElseThrow();
  }

  static int evidenceIndex(JsonObject d, String tool) {
    return d.getJsonArray("tools").stream().map(o -> (JsonObject) o).filter(t -> tool.equals(t.getString("tool")))
        .findFirst().orElseThrow().getInteger("index");
  }

  static boolean cited(JsonObject d, String citation) {
    for (Object o : d.getJsonArray("reasons")) {
      for (Object c : ((JsonObject) o).getJsonArray("citations", new JsonArray())) {
        if (citation.equals(((JsonObject) c).getString("citation"))) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void aSellerPayingOutToAnotherSellersAccountIsStoppedAsOfTheDecisionTime() {
    JsonObject d = onboard("S-M1");
    // as of 2025-06-01 the account GB..0001 is S-M1's own (registered, paid out to) and S-M2's payout account; S-M3's
    // payout to it is dated 2025-06-10 and does not count: one other subject, scaled (1 - 0) / (2 - 0) = 0.5
    JsonObject shared = signal(d, "shared_payout_account");
    assertEquals(1.0, shared.getDouble("value"), shared.encode());
    assertEquals(0.5, shared.getDouble("scaled"));
    String cite = "[source:identifier_sharing:" + evidenceIndex(d, "identifier_sharing") + "]";
    assertEquals(cite, shared.getString("cite"));
    assertTrue(cited(d, cite), d.getJsonArray("reasons").encodePrettily());
    // one strong shared identifier (the bank account, edge weight 1): scaled 1/3 = 0.3333
    assertEquals(1.0, signal(d, "shared_identifiers").getDouble("value"));
    // the sale of 2025-06-05 (a round 500) is later than the decision: five transactions, no round amount
    assertEquals(0.0, signal(d, "round_amount_share").getDouble("value"));
    assertEquals(0.0, signal(d, "near_threshold_share").getDouble("value"));
    assertTrue(!signal(d, "top_buyers_share").getBoolean("known"), "fewer than 10 transactions: unknown");
    // evidence 3.0 * 0.5 + 0.5 * 0.3333 = 1.66665 units; risk 100 * (1 - e^-1.66665) = 81.11 >= 70 -> REJECT
    assertEquals(81.11, d.getDouble("riskScore"), 1e-9, d.getJsonArray("signals").encodePrettily());
    assertEquals("REJECT", d.getString("outcome"));
    // high risk is never final without a person
    assertEquals("PENDING_REVIEW", d.getString("status"));
  }

  @Test
  void aBuyerOpenedWithABatchOnOneDeviceIsBlockedAsOfItsTransaction() {
    HttpResponse<Buffer> r = await(client.post("/api/decisions/transactions").putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("transactionId", "T-P3").put("asOf", "2025-05-20T12:00:00Z")));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonObject d = r.bodyAsJsonObject();
    // the buyer tool is asked about the transaction's buyer
    JsonObject call = d.getJsonArray("tools").stream().map(o -> (JsonObject) o)
        .filter(t -> "buyer_identifier_sharing".equals(t.getString("tool"))).findFirst().orElseThrow();
    assertEquals("B-P3", call.getJsonObject("params").getString("id"));
    // B-P1 and B-P2 share its device and were first seen within 7 days of it; B-P4 opens the next day and does not
    // count: 2, scaled (2 - 0) / (3 - 0) = 0.6667, weight 2 -> 1.3333 units
    JsonObject linked = signal(d, "buyer_linked_new_accounts");
    assertEquals(2.0, linked.getDouble("value"), linked.encode());
    assertEquals(0.6667, linked.getDouble("scaled"), 1e-4);
    // velocity: 3 sales in the last 24 h against 5 in the 90 days before (5 / 90 = 0.0556 a day): 53.96, scaled
    // (53.96 - 5) / (20 - 5) clamped to 1, weight 0.3 -> 0.3 units; the 12.99 sale is below the seller's mean
    // (z < 0 -> 0). Evidence 1.6333 units: risk 100 * (1 - e^-1.6333) = 80.47 >= 70 -> BLOCK
    assertEquals(1.0, signal(d, "velocity_ratio").getDouble("scaled"));
    assertEquals(0.0, signal(d, "amount_zscore").getDouble("scaled"));
    assertEquals(80.47, d.getDouble("riskScore"), 1e-9, d.getJsonArray("signals").encodePrettily());
    assertEquals("BLOCK", d.getString("outcome"));
    assertEquals("PENDING_REVIEW", d.getString("status"));
  }

  @Test
  void salesJustUnderTheReportingThresholdAreStructuring() {
    JsonObject d = onboard("S-ST");
    // five sales of 9,555.55 to 9,920.30 USD, all within 10% under 10,000: share 1.0, scaled (1 - 0.1) / (0.5 - 0.1)
    // clamped to 1; 2.5 units; nothing else: risk 100 * (1 - e^-2.5) = 91.79 -> REJECT
    JsonObject near = signal(d, "near_threshold_share");
    assertEquals(1.0, near.getDouble("value"));
    assertEquals(1.0, near.getDouble("scaled"));
    String cite = "[source:trading_patterns:" + evidenceIndex(d, "trading_patterns") + "]";
    assertEquals(cite, near.getString("cite"));
    assertTrue(cited(d, cite));
    assertEquals(0.0, signal(d, "shared_payout_account").getDouble("value"));
    assertEquals(91.79, d.getDouble("riskScore"), 1e-9, d.getJsonArray("signals").encodePrettily());
    assertEquals("REJECT", d.getString("outcome"));
    assertEquals("PENDING_REVIEW", d.getString("status"));
  }
}
