package dev.argus.knowledge.pg;

import dev.argus.config.PgConf;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.knowledge.pg.PgStoreBehaviourTest.doc;
import static dev.argus.knowledge.pg.PgStoreBehaviourTest.unit;
import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trigram leg's own table ({@code chunk_trigrams}, V18) follows the chunks through every write, filtered trigram
 * searches test their conditions on the chunks, and the vector leg's pipelined transaction leaves its connection as
 * it found it, also when its query fails.
 */
class PgChunkTrigramsTest {

  private PgTestStore fixture;
  private PgKnowledgeStore store;

  @BeforeEach
  void open() {
    fixture = PgTestStore.open("test-model", 4);
    store = fixture.store;
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void trigramRowsFollowTheChunksThroughInsertReplaceUpdateAndDelete() {
    put("t1", "Refund desk", "default", List.of("Chargeback disputes go to the refund desk.",
        "Second chunk about settlement timing."));
    assertEquals(2, trigramRows("t1"));
    assertEquals(0, staleTrigramRows(), "each row holds the trigrams of its chunk's title and text");
    assertEquals(List.of("t1"), ids(store.trigramSearch("chargebak", 5, SearchFilter.NONE)));

    // Replaced by one chunk without the word: the old rows go with the old chunks.
    put("t1", "Refund desk", "default", List.of("Payouts are held for a week."));
    assertEquals(1, trigramRows("t1"));
    assertEquals(List.of(), ids(store.trigramSearch("chargebak", 5, SearchFilter.NONE)));
    assertEquals(List.of("t1"), ids(store.trigramSearch("payouts helt", 5, SearchFilter.NONE)));

    // A chunk's text changed in place (nothing in Argus does this; a hand-made repair might).
    fixture.pg.execute("UPDATE chunks SET text = 'Velocity rules flag card testing.' WHERE document_id = 't1'");
    assertEquals(0, staleTrigramRows());
    assertEquals(List.of("t1"), ids(store.trigramSearch("velocty", 5, SearchFilter.NONE)));

    assertTrue(await(store.delete("t1")));
    assertEquals(0, trigramRows("t1"));
    assertEquals(List.of(), ids(store.trigramSearch("velocty", 5, SearchFilter.NONE)));
  }

  @Test
  void filteredTrigramSearchTestsItsConditionsOnTheChunks() {
    put("ops-1", "Seller SLR-40917", "ops", List.of("Seller SLR-40917 shipped late."));
    put("legal-1", "Seller SLR-40917", "legal", List.of("Seller SLR-40917 disputed the fee."));
    for (int round = 0; round < 2; round++) { // counted exactly, then from the planner's statistics
      assertEquals(List.of("legal-1", "ops-1"),
          ids(store.trigramSearch("SLR-40971", 5, SearchFilter.NONE)).stream().sorted().toList());
      assertEquals(List.of("legal-1"), ids(store.trigramSearch("SLR-40971", 5, SearchFilter.namespace("legal"))));
      assertEquals(List.of("ops-1"), ids(store.trigramSearch("SLR-40971", 5,
          SearchFilter.namespace("ops").limitedTo(java.util.Set.of("ops", "other")))));
      fixture.analyze();
    }
  }

  @Test
  void theTrigramLegLooksItsTrigramsUpInTheIndexNeverScanningTheTable() throws InterruptedException {
    for (int i = 0; i < 60; i++) {
      put("s" + i, "Settlement note " + i, "default", List.of("Payout " + i + " settled after the chargeback window."));
    }
    fixture.analyze(); // the leg as a store with statistics runs it (a fresh table's N and avgdl read all rows)
    // The planner rates a sequential scan of the narrow table cheaper than the index; it would unpack every row.
    long[] before = scans();
    assertEquals("s7", ids(store.trigramSearch("payout 7 setled", 5, SearchFilter.NONE)).get(0));
    assertEquals(List.of("s7"), ids(store.trigramSearch("zqxj payout 7", 1, SearchFilter.NONE)));
    assertEquals(List.of("s7"), ids(store.trigramSearch("payout 7", 1, SearchFilter.namespace("default"))));
    long[] after = scans();
    for (int wait = 0; wait < 100 && after[1] == before[1]; wait++) { // statistics arrive within a second or so
      Thread.sleep(100);
      after = scans();
    }
    assertTrue(after[1] > before[1], "the GIN index was used");
    assertEquals(before[0], after[0], "no sequential scan of chunk_trigrams");
  }

  @Test
  void theTrigramLegsSettingsKeepItsStatementsFromJitCompilation() {
    put("j1", "Payout desk", "default", List.of("Payouts settle after the chargeback window."));
    // A fresh table: the whole leg in one statement, which counts the table's rows, a scan no index replaces.
    String sql = "EXPLAIN (ANALYZE, FORMAT JSON) " + PgTextSql.trigramSql(PgFilterSql.clauses(SearchFilter.NONE, 5, new ArrayList<>()), PgSearchLegs.TRIGRAMS_KEPT,
        PgSearchLegs.MIN_TRIGRAM_SHARE, fixture.pg.conf().trigramPostings());
    String plan = await(fixture.db.pool().withTransaction(conn -> conn.query(PgSql.NO_SEQUENTIAL_SCAN).execute()
        .compose(v -> conn.preparedQuery(sql).execute(Tuple.of("payout setle")))))
        .iterator().next().getValue(0).toString();
    assertTrue(plan.contains("Bitmap Index Scan"), plan);
    assertFalse(plan.contains("\"JIT\""), "no JIT compilation: " + plan);
  }

  /** Sequential and index scans of the trigram table so far. */
  private long[] scans() {
    Row row = await(fixture.db.pool().query("SELECT seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables"
        + " WHERE relname = 'chunk_trigrams'").execute()).iterator().next();
    return new long[] {row.getLong(0), row.getLong(1)};
  }

  @Test
  void theVectorLegLeavesItsConnectionAsItFoundItAlsoWhenItsQueryFails() {
    put("v1", "Vectors", "default", List.of("A chunk to find."));
    PgConf one = fixture.pg.conf().withPoolSize(1);
    Database db = await(Database.postgres(fixture.vertx, one));
    try {
      PgKnowledgeStore single = new PgKnowledgeStore(db, one); // one connection: every statement below shares it
      float[] query = unit(new float[] {1, 0, 0, 0});
      assertEquals(List.of("v1"), ids(single.vectorSearch(query, 5, SearchFilter.NONE)));
      assertEquals(List.of("off", "on"), settings(db), "the leg's settings ended with its transaction");

      // pgvector refuses NaN: the query fails inside the pipelined transaction, which COMMIT then rolls back.
      assertThrows(RuntimeException.class,
          () -> await(single.vectorSearch(new float[] {Float.NaN, 0, 0, 0}, 5, SearchFilter.NONE)));
      assertEquals(List.of("off", "on"), settings(db), "no transaction left open or aborted");
      assertEquals(List.of("v1"), ids(single.vectorSearch(query, 5, SearchFilter.NONE)));
      assertEquals(List.of("v1"), ids(single.keywordSearch("chunk", 5, SearchFilter.NONE)));
    } finally {
      await(db.close());
    }
  }

  /** Whether the connection is inside a transaction ({@code on}/{@code off}) and its {@code enable_seqscan}. */
  private static List<String> settings(Database db) {
    Row row = await(db.pool().query("SELECT CASE WHEN now() = statement_timestamp() THEN 'off' ELSE 'on' END,"
        + " current_setting('enable_seqscan')").execute()).iterator().next();
    return List.of(row.getString(0), row.getString(1));
  }

  private void put(String id, String title, String namespace, List<String> texts) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      chunks.add(new Chunk(id, i, texts.size(), texts.get(i), unit(new float[] {1, 0.1f * i, 0, 0})));
    }
    await(store.upsert(doc(id, title, namespace, new JsonObject(), String.join(" ", texts)), chunks));
  }

  private long trigramRows(String documentId) {
    return await(fixture.db.pool().preparedQuery("SELECT count(*) FROM chunk_trigrams WHERE document_id = $1")
        .execute(Tuple.of(documentId))).iterator().next().getLong(0);
  }

  /** Rows whose trigrams are not those of their chunk's title and text, or chunks without a row. */
  private long staleTrigramRows() {
    return await(fixture.db.pool().query("SELECT count(*) FROM chunks c LEFT JOIN chunk_trigrams t"
        + " ON t.document_id = c.document_id AND t.idx = c.idx WHERE t.tgv IS DISTINCT FROM"
        + " array_to_tsvector(show_trgm(c.title || ' ' || c.text))"
        + " OR t.tgv_len IS DISTINCT FROM cardinality(show_trgm(c.title || ' ' || c.text))").execute())
        .iterator().next().getLong(0);
  }

  private static List<String> ids(io.vertx.core.Future<List<ScoredChunk>> hits) {
    return await(hits).stream().map(ScoredChunk::documentId).toList();
  }
}
