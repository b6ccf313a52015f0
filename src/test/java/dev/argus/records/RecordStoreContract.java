package dev.argus.records;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Set;

import static dev.argus.records.RecordFixtures.record;
import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour every {@link RecordStore} must have, against a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RecordStoreContract {

  static final long MAR_2 = ms("2025-03-02T00:00:00Z");

  protected Vertx vertx;
  protected Database db;
  protected RecordStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  /** Every value of every row of the records tables, as text (to look for raw identifiers). */
  protected abstract String allTableText();

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = RecordStores.create(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  @BeforeEach
  void clean() {
    for (String table : List.of("records", "record_subjects", "watchlist_names", "record_labels")) {
      await(db.pool().query("DELETE FROM " + table).execute());
    }
    await(store.upsert(RecordFixtures.records(RecordFixtures.handWorld())));
  }

  static long ms(String iso) {
    return java.time.Instant.parse(iso).toEpochMilli();
  }

  static List<String> ids(List<JsonObject> bodies) {
    return bodies.stream().map(b -> b.getString("id")).toList();
  }

  @Test
  void upsertIsIdempotentAndCountsChanges() {
    List<DomainRecord> world = RecordFixtures.records(RecordFixtures.handWorld());
    RecordStore.UpsertCounts again = await(store.upsert(world));
    assertEquals(0, again.created());
    assertEquals(0, again.updated());
    assertEquals(world.size(), again.unchanged());
    assertTrue(again.changed().isEmpty(), "a re-load changes nothing");
    assertEquals(world.size(), await(store.count(null)));

    DomainRecord changed = record("{\"kind\":\"transaction\",\"id\":\"T-6\",\"at\":\"2025-03-10T10:00:00Z\","
        + "\"sellerId\":\"S-1\",\"amount\":310,\"currency\":\"EUR\"}");
    DomainRecord fresh = record("{\"kind\":\"buyer\",\"id\":\"B-2\",\"createdAt\":\"2025-01-01T00:00:00Z\"}");
    RecordStore.UpsertCounts counts = await(store.upsert(List.of(changed, fresh, world.get(0))));
    assertEquals(1, counts.created());
    assertEquals(1, counts.updated());
    assertEquals(1, counts.unchanged());
    assertEquals(List.of("T-6", "B-2"), counts.changed().stream().map(DomainRecord::id).toList());
    assertEquals(310.0, await(store.get("T-6")).orElseThrow().getDouble("amount"));
  }

  @Test
  void sameIdTwiceInOneBatchKeepsTheLast() {
    DomainRecord a = record("{\"kind\":\"buyer\",\"id\":\"B-7\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"name\":\"A\"}");
    DomainRecord b = record("{\"kind\":\"buyer\",\"id\":\"B-7\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"name\":\"B\"}");
    RecordStore.UpsertCounts counts = await(store.upsert(List.of(a, b)));
    assertEquals(1, counts.created());
    assertEquals(1, counts.updated());
    assertEquals(1, counts.changed().size());
    assertEquals("B", await(store.get("B-7")).orElseThrow().getString("name"));
  }

  @Test
  void getReturnsTheStoredForm() {
    JsonObject s1 = await(store.get("S-1")).orElseThrow();
    assertEquals(RecordFixtures.record(RecordFixtures.handWorld().lines().findFirst().orElseThrow()).body(), s1);
    assertFalse(s1.containsKey("label"));
    assertTrue(await(store.get("S-404")).isEmpty());
  }

  @Test
  void sellerTransactionsInAWindowAndAsOf() {
    RecordQuery window = new RecordQuery(List.of(RecordKind.TRANSACTION), "S-1", null, null, MAR_2,
        ms("2025-03-05T10:00:00Z"), null, 0, 100);
    assertEquals(List.of("T-2", "T-3", "T-4", "T-5"), ids(await(store.query(window))));
    RecordQuery asOf = RecordQuery.of(List.of(RecordKind.TRANSACTION), "S-1", null, ms("2025-03-04T00:00:00Z"), 100);
    assertEquals(List.of("T-1", "T-2", "T-3"), ids(await(store.query(asOf))));
    RecordQuery paged = new RecordQuery(List.of(RecordKind.TRANSACTION), "S-1", null, null, null, null, null, 2, 3);
    assertEquals(List.of("T-3", "T-4", "T-5"), ids(await(store.query(paged))));
  }

  @Test
  void reversalsOfASellersTransactions() {
    RecordQuery q = RecordQuery.of(List.of(RecordKind.REFUND, RecordKind.CHARGEBACK), "S-1", null, null, 100);
    assertEquals(List.of("R-1", "CB-1"), ids(await(store.query(q))), "R-9 refunds S-2's transaction");
    RecordQuery all = RecordQuery.of(List.of(), "S-1", null, null, 100);
    assertEquals(Set.of("S-1", "T-1", "T-2", "T-3", "T-4", "T-5", "T-6", "R-1", "CB-1", "P-1", "P-2"),
        Set.copyOf(ids(await(store.query(all)))));
    RecordQuery payouts = RecordQuery.of(List.of(RecordKind.PAYOUT), "S-1", null, ms("2025-03-08T00:00:00Z"), 100);
    assertEquals(List.of("P-1"), ids(await(store.query(payouts))));
  }

  @Test
  void casesAndRiskEventsBySubject() {
    assertEquals(List.of("C-1"), ids(await(store.query(RecordQuery.ofSubject(List.of(RecordKind.CASE), "S-2", null,
        10)))));
    assertEquals(List.of(), ids(await(store.query(RecordQuery.ofSubject(List.of(RecordKind.CASE), "S-2",
        ms("2025-03-07T00:00:00Z"), 10)))), "the case was opened on 8 March");
    assertEquals(List.of("E-1"), ids(await(store.query(RecordQuery.ofSubject(List.of(RecordKind.RISK_EVENT), "S-1",
        null, 10)))));
    assertEquals(List.of("C-1", "E-1"), ids(await(store.query(RecordQuery.ofSubject(List.of(), "S-1", null, 10)))));
    RecordQuery buyer = new RecordQuery(List.of(), null, "B-1", null, null, null, null, 0, 100);
    assertEquals(7, await(store.query(buyer)).size(), "the buyer and its six transactions");
  }

  /** The reduced reads of transaction_history: amounts and currencies from the stored form, counts in SQL. */
  @Test
  void tradingReadsBoundedByTheirWindows() {
    long from = ms("2025-03-02T10:00:00Z"); // exclusive: T-2 itself is left out
    long to = ms("2025-03-05T12:00:00Z");
    List<TransactionStats.Tx> txs = await(store.transactions("S-1", from, to, 100));
    assertEquals(List.of("T-3", "T-4", "T-5"), txs.stream().map(TransactionStats.Tx::id).toList());
    assertEquals(new TransactionStats.Tx("T-4", ms("2025-03-04T10:00:00Z"), 105.0, "EUR"), txs.get(1));
    assertEquals(2, await(store.transactions("S-1", 0, to, 2)).size(), "at most the limit");
    // reversals of S-1's transactions dated in (03-01, 03-10]: R-1 (110 on 03-05T12), CB-1 (90 on 03-08); R-9 is S-2's
    List<TransactionStats.Reversal> rev = await(store.reversals("S-1", ms("2025-03-01T00:00:00Z"),
        ms("2025-03-10T00:00:00Z"), 100));
    assertEquals(List.of("refund R-1 110.0", "chargeback CB-1 90.0"), rev.stream()
        .map(r -> r.kind() + " " + r.tx().id() + " " + r.tx().amount()).toList());
    assertEquals(List.of("R-1"), await(store.reversals("S-1", ms("2025-03-01T00:00:00Z"), ms("2025-03-07T00:00:00Z"),
        100)).stream().map(r -> r.tx().id()).toList(), "CB-1 is not known on 7 March");
    assertEquals(new TransactionStats.Span(6, ms("2025-03-01T10:00:00Z"), ms("2025-03-10T10:00:00Z")),
        await(store.transactionSpan("S-1", null)));
    assertEquals(new TransactionStats.Span(5, ms("2025-03-01T10:00:00Z"), ms("2025-03-05T10:00:00Z")),
        await(store.transactionSpan("S-1", ms("2025-03-06T00:00:00Z"))));
    assertEquals(new TransactionStats.Span(0, null, null), await(store.transactionSpan("S-404", null)));
    // B-1 by 03-08T00:00 other than T-5: T-1..T-4 (T-6 is on the 10th) = 4; R-1 and CB-1 (on the 8th) are known
    assertEquals(new TransactionStats.BuyerHistory(4, 1, 1), await(store.buyerHistory("B-1", "T-5",
        ms("2025-01-01T00:00:00Z"), ms("2025-03-08T00:00:00Z"))));
    assertEquals(new TransactionStats.BuyerHistory(0, 0, 0), await(store.buyerHistory("B-404", null, 0,
        ms("2025-03-08T00:00:00Z"))));
  }

  @Test
  void watchlistLookups() {
    List<JsonObject> exact = await(store.watchlistByKeys(List.of("email:a@shop.example", "domain:shop-one.example",
        "bank_account:" + RecordFixtures.FP.bankAccount(RecordFixtures.OTHER_ACCOUNT), "email:nobody@x.example")));
    assertEquals(List.of("W-2", "W-4", "W-6"), ids(exact));
    assertEquals(List.of("W-3"), ids(await(store.watchlistOfType("ip_range", 100))));
    assertEquals(List.of("W-1", "W-5"), ids(await(store.watchlistOfType("name", 100))));
    List<RecordStore.NameCandidate> names = await(store.watchlistNames("jonas marlowe", 10));
    assertTrue(names.contains(new RecordStore.NameCandidate("W-1", "jonas marlow")), names.toString());
    assertTrue(names.stream().noneMatch(c -> c.recordId().equals("W-5")), names.toString());
    assertTrue(await(store.watchlistNames("zz", 10)).isEmpty());
  }

  @Test
  void deleteRemovesRecordsAndTheirSideRows() {
    List<JsonObject> deleted = await(store.delete(List.of("C-1", "W-1", "S-1", "nope")));
    assertEquals(Set.of("C-1", "W-1", "S-1"), Set.copyOf(ids(deleted)));
    assertTrue(await(store.get("C-1")).isEmpty());
    assertTrue(await(store.query(RecordQuery.ofSubject(List.of(RecordKind.CASE), "S-2", null, 10))).isEmpty());
    assertTrue(await(store.watchlistNames("jonas marlowe", 10)).isEmpty());
    assertEquals(0L, labelCount("S-1"));
    assertEquals(1L, labelCount("S-2"));
  }

  @Test
  void aRecordThatStopsBeingACaseLosesItsSubjects() {
    await(store.upsert(List.of(record("{\"kind\":\"buyer\",\"id\":\"C-1\",\"createdAt\":\"2025-01-01T00:00:00Z\"}"))));
    assertTrue(await(store.query(RecordQuery.ofSubject(List.of(), "S-2", null, 10))).isEmpty());
  }

  @Test
  void labelsAreKeptApartAndRawIdentifiersNowhere() {
    assertEquals(1L, labelCount("S-1"));
    Object v = await(db.pool().query("SELECT label FROM record_labels WHERE record_id = 'S-1'").execute())
        .iterator().next().getValue("label");
    JsonObject label = v instanceof JsonObject o ? o : new JsonObject(v.toString());
    assertEquals("mule_network", label.getString("pattern"));
    String text = allTableText();
    assertTrue(text.contains(RecordFixtures.FP.taxId(RecordFixtures.TAX_ID)), "the fingerprint is stored");
    for (String raw : List.of(RecordFixtures.TAX_ID, "99887766", "DE89370400440532013000", "370400440532013000",
        "GB00TEST1111222233", "1111222233")) {
      assertFalse(text.contains(raw), "raw identifier stored: " + raw);
    }
    assertFalse(text.contains("\"label\""), "no stored form holds a label");
  }

  private long labelCount(String id) {
    return await(db.pool().query("SELECT COUNT(*) FROM record_labels WHERE record_id = '" + id + "'").execute())
        .iterator().next().getLong(0);
  }

  /** Concatenated text of every column of every row of a table. */
  protected String tableText(String sql) {
    StringBuilder sb = new StringBuilder();
    for (Row row : await(db.pool().query(sql).execute())) {
      for (int i = 0; i < row.size(); i++) {
        sb.append(row.getValue(i)).append('\t');
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
