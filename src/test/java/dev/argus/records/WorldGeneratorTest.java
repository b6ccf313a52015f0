package dev.argus.records;

import dev.argus.records.world.WorldGenerator;
import dev.argus.store.Database;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Determinism, validity, and the presence of every planted pattern and trap, checked on the generated records. */
class WorldGeneratorTest {

  private static List<JsonObject> world;
  private static Map<String, List<JsonObject>> byKind;
  private static Map<String, JsonObject> byId;

  @BeforeAll
  static void generate() {
    world = new ArrayList<>();
    for (String line : text(400, 3).split("\n")) {
      world.add(new JsonObject(line));
    }
    byKind = world.stream().collect(Collectors.groupingBy(o -> o.getString("kind")));
    byId = new HashMap<>();
    world.forEach(o -> byId.put(o.getString("id"), o));
  }

  static String text(int sellers, long seed) {
    StringWriter out = new StringWriter();
    WorldGenerator.generate(sellers, seed, out);
    return out.toString();
  }

  @Test
  void sameSeedSameBytesOtherSeedOtherWorld() {
    String a = text(60, 7);
    assertEquals(a, text(60, 7));
    assertNotEquals(a, text(60, 8));
    assertThrows(IllegalArgumentException.class, () -> text(20, 1));
  }

  @Test
  void everyLineIsAValidRecordAndEverySubjectHasALabel() {
    RecordValidator validator = RecordFixtures.VALIDATOR;
    for (int i = 0; i < world.size(); i++) {
      RecordValidator.Line line = validator.line(i + 1, world.get(i).encode());
      assertTrue(line.error() == null, "line " + (i + 1) + ": " + line.error());
    }
    for (String kind : List.of("seller", "buyer")) {
      assertTrue(byKind.get(kind).stream().allMatch(o -> o.getJsonObject("label") != null), kind);
    }
    assertEquals(400, byKind.get("seller").size());
    double perSeller = (double) byKind.get("transaction").size() / 400;
    assertTrue(perSeller > 60 && perSeller < 160, "about 100 transactions per seller, got " + perSeller);
    for (String kind : RecordKind.wireNames()) {
      assertTrue(byKind.containsKey(kind), "the world holds " + kind + " records");
    }
  }

  /** Planted sales on background sellers (refund and promotion abuse) used to predate some of those sellers. */
  @Test
  void noTransactionPredatesItsSeller() {
    for (long seed : new long[] {3, 42, 7}) {
      List<JsonObject> records = text(400, seed).lines().map(JsonObject::new).toList();
      Map<String, String> created = new HashMap<>();
      records.stream().filter(o -> "seller".equals(o.getString("kind")))
          .forEach(o -> created.put(o.getString("id"), o.getString("createdAt")));
      List<String> early = records.stream().filter(o -> "transaction".equals(o.getString("kind")))
          .filter(t -> t.getString("at").compareTo(created.get(t.getString("sellerId"))) < 0)
          .map(t -> t.getString("id")).toList();
      assertEquals(List.of(), early, "seed " + seed);
    }
  }

  static List<JsonObject> labelled(String kind, String pattern) {
    return byKind.get(kind).stream().filter(o -> pattern.equals(o.getJsonObject("label").getString("pattern")))
        .toList();
  }

  static List<JsonObject> of(String kind, String field, String value) {
    return byKind.get(kind).stream().filter(o -> value.equals(o.getString(field))).toList();
  }

  static Set<String> set(List<JsonObject> objects, String field) {
    return objects.stream().map(o -> o.getString(field)).collect(Collectors.toSet());
  }

  @Test
  void syntheticIdentitiesShareOnePhoneDeviceAndAddress() {
    List<JsonObject> s = labelled("seller", "synthetic_identity");
    assertTrue(s.size() >= 3);
    assertEquals(1, set(s, "phone").size());
    assertEquals(1, s.stream().map(o -> o.getJsonArray("deviceIds").getString(0)).distinct().count());
    assertEquals(1, s.stream().map(o -> o.getJsonObject("address").getString("line1").split(",")[0]).distinct().count());
    assertEquals(s.size(), set(s, "taxId").size(), "each with its own tax id");
    assertTrue(s.stream().allMatch(o -> o.getJsonObject("label").getBoolean("fraud")));
  }

  @Test
  void muleSellersPayOutToOneAccount() {
    List<JsonObject> s = labelled("seller", "mule_network");
    assertTrue(s.size() >= 5);
    assertEquals(1, set(s, "bankAccount").size());
    assertEquals(s.size(), set(s, "email").size(), "otherwise distinct identities");
    Set<String> accounts = new HashSet<>();
    s.forEach(o -> accounts.addAll(set(of("payout", "sellerId", o.getString("id")), "bankAccount")));
    assertEquals(set(s, "bankAccount"), accounts);
  }

  @Test
  void collusionRingBuyersUseTheSellersDevicesAndOnlyBuyInTheRing() {
    List<JsonObject> sellers = labelled("seller", "collusion_ring");
    List<JsonObject> buyers = labelled("buyer", "collusion_ring");
    assertTrue(sellers.size() >= 3);
    assertEquals(sellers.size(), buyers.size());
    Set<String> sellerDevices = new HashSet<>();
    sellers.forEach(o -> o.getJsonArray("deviceIds").forEach(d -> sellerDevices.add((String) d)));
    buyers.forEach(b -> assertTrue(sellerDevices.contains(b.getJsonArray("deviceIds").getString(0))));
    Set<String> ring = set(buyers, "id");
    for (JsonObject s : sellers) {
      List<JsonObject> txs = of("transaction", "sellerId", s.getString("id"));
      assertFalse(txs.isEmpty());
      assertTrue(txs.stream().allMatch(t -> ring.contains(t.getString("buyerId"))));
      assertTrue(txs.stream().allMatch(t -> t.getDouble("amount") % 50 == 0), "round sums");
    }
  }

  @Test
  void accountTakeoverChangesThePayoutAccountAfterANewDevice() {
    JsonObject s = labelled("seller", "account_takeover").get(0);
    List<JsonObject> events = of("risk_event", "subjectId", s.getString("id"));
    JsonObject login = events.stream().filter(e -> e.getString("type").equals("login_new_device")).findFirst()
        .orElseThrow();
    assertTrue(events.stream().anyMatch(e -> e.getString("type").equals("bank_account_changed")));
    List<JsonObject> payouts = of("payout", "sellerId", s.getString("id"));
    String at = login.getString("at");
    assertTrue(payouts.stream().filter(p -> p.getString("at").compareTo(at) < 0)
        .allMatch(p -> p.getString("bankAccount").equals(s.getString("bankAccount"))));
    assertTrue(payouts.stream().anyMatch(p -> p.getString("at").compareTo(at) > 0
        && !p.getString("bankAccount").equals(s.getString("bankAccount"))), "a payout to the new account");
  }

  @Test
  void triangulationUsesForeignCardsAndEndsInFraudChargebacks() {
    JsonObject s = labelled("seller", "triangulation").get(0);
    List<JsonObject> txs = of("transaction", "sellerId", s.getString("id"));
    long foreign = txs.stream().filter(t -> !t.getString("cardCountry").equals(t.getString("country"))).count();
    assertEquals(txs.size(), foreign, "every card was issued abroad");
    Set<String> ids = set(txs, "id");
    long chargebacks = byKind.get("chargeback").stream().filter(c -> ids.contains(c.getString("transactionId"))).count();
    assertTrue(chargebacks >= txs.size() / 10, chargebacks + " of " + txs.size());
  }

  @Test
  void refundAbusersGetMostPurchasesRefunded() {
    List<JsonObject> buyers = labelled("buyer", "refund_abuse");
    assertTrue(buyers.size() >= 2);
    Set<String> refunded = set(byKind.get("refund"), "transactionId");
    for (JsonObject b : buyers) {
      List<JsonObject> txs = of("transaction", "buyerId", b.getString("id")).stream()
          .filter(t -> "approved".equals(t.getString("status"))).toList();
      long n = txs.stream().filter(t -> refunded.contains(t.getString("id"))).count();
      assertTrue(n * 2 >= txs.size(), n + " refunds of " + txs.size());
      assertTrue(set(txs, "sellerId").size() >= 3, "from several sellers");
    }
  }

  @Test
  void promotionAbusersShareADeviceAndRedeemOnce() {
    List<JsonObject> buyers = labelled("buyer", "promotion_abuse");
    assertTrue(buyers.size() >= 10);
    assertEquals(1, buyers.stream().map(b -> b.getJsonArray("deviceIds").getString(0)).distinct().count());
    assertTrue(buyers.stream().allMatch(b -> b.getString("email").contains("+")), "plus-tagged e-mails");
    for (JsonObject b : buyers) {
      List<JsonObject> txs = of("transaction", "buyerId", b.getString("id"));
      assertEquals(1, txs.size());
      assertEquals("WELCOME10", txs.get(0).getString("promoCode"));
    }
  }

  @Test
  void structuringStaysJustUnderTheThreshold() {
    JsonObject s = labelled("seller", "structuring").get(0);
    List<JsonObject> txs = of("transaction", "sellerId", s.getString("id"));
    assertTrue(txs.size() >= 20);
    assertTrue(txs.stream().allMatch(t -> t.getDouble("amount") >= 9_500 && t.getDouble("amount") < 10_000));
  }

  @Test
  void trapsShareIdentifiersForInnocentReasons() {
    List<JsonObject> family = labelled("seller", "trap_family_address");
    assertTrue(family.size() >= 2);
    assertEquals(1, family.stream().map(o -> o.getJsonObject("address").encode()).distinct().count());
    assertEquals(1, family.stream().map(o -> o.getString("legalName").split(" ")[1]).distinct().count());
    assertEquals(family.size(), set(family, "bankAccount").size());
    List<JsonObject> cowork = labelled("seller", "trap_coworking_ip");
    assertTrue(cowork.size() >= 5);
    assertEquals(1, cowork.stream().map(o -> net24(o.getJsonArray("ips").getString(0))).distinct().count());
    assertEquals(cowork.size(), set(cowork, "bankAccount").size());
    List<JsonObject> agency = labelled("seller", "trap_agency");
    assertTrue(agency.size() >= 4);
    assertEquals(1, set(agency, "phone").size());
    assertEquals(1, agency.stream().map(o -> o.getString("email").split("@")[1]).distinct().count());
    assertEquals(agency.size(), set(agency, "bankAccount").size());
    for (List<JsonObject> trap : List.of(family, cowork, agency)) {
      assertTrue(trap.stream().noneMatch(o -> o.getJsonObject("label").getBoolean("fraud")));
    }
  }

  static String net24(String ip) {
    return ip.substring(0, ip.lastIndexOf('.'));
  }

  @Test
  void casesAndWatchlistPointAtPlantedGroups() {
    Set<String> fraudSubjects = world.stream().filter(o -> o.getJsonObject("label") != null
        && o.getJsonObject("label").getBoolean("fraud")).map(o -> o.getString("id")).collect(Collectors.toSet());
    List<JsonObject> fraudCases = of("case", "outcome", "fraud");
    assertFalse(fraudCases.isEmpty());
    for (JsonObject c : fraudCases) {
      JsonArray subjects = c.getJsonArray("subjectIds");
      assertTrue(subjects.stream().allMatch(fraudSubjects::contains));
      assertTrue(c.getString("summary").contains(subjects.getString(0)), "the summary names its subjects");
    }
    assertTrue(byKind.get("watchlist_entry").size() >= 5);
  }

  /** Loaded into a real store, the labels go to the labels table and nowhere else. */
  @Test
  void labelsStayOutOfTheStoredRecords() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, Files.createTempDirectory("argus-world-").resolve("argus.db")));
      RecordStore store = RecordStores.create(db);
      RecordLoader loader = new RecordLoader(vertx, store, RecordFixtures.VALIDATOR, 500, 1000, null);
      String text = text(60, 11);
      long[] failed = {0};
      await(loader.load(LineSource.of(text), b -> failed[0] += b.errors().size(), () -> false));
      assertEquals(0, failed[0]);
      long subjects = text.lines().filter(l -> l.contains("\"label\"")).count();
      assertEquals(subjects, await(db.pool().query("SELECT COUNT(*) FROM record_labels").execute()).iterator().next()
          .getLong(0));
      assertEquals(0L, await(db.pool().query("SELECT COUNT(*) FROM records WHERE body LIKE '%\"label\"%' "
          + "OR body LIKE '%\"pattern\"%'").execute()).iterator().next().getLong(0));
      assertEquals(text.lines().count(), await(store.count(null)));
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }
}
