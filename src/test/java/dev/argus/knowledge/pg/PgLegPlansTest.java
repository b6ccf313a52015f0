package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the server plans the three legs' statements ({@link PgFilterSql#clauses}): an unfiltered statement, whose plan does
 * not depend on the values bound, is planned once for all executions after the first five (a generic plan) and
 * answers as before; a filtered one binds its limit and still filters. And the transaction the vector and trigram
 * legs run in (transaction-scoped settings; the leg answers before COMMIT is answered): on a pool of one
 * connection, the next statement runs outside any transaction, with the server's settings, after a leg that
 * succeeded and after one whose statement failed.
 */
class PgLegPlansTest {

  /** Executions of one statement: the server makes a plan for each of the first five, then weighs a generic one. */
  private static final int ROUNDS = 8;
  private static final int FILLERS = 4_000;

  /** The connection's state as seen by a statement of its own: ef_search, seqscan, whether a transaction is open. */
  private static final String STATE = "SELECT coalesce(current_setting('hnsw.ef_search', true), '40') || ' '"
      + " || current_setting('enable_seqscan') || ' ' || (now() = statement_timestamp()) AS state";
  private static final String OUTSIDE = "40 on true";

  private static PgTestStore fixture;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("test-model", 4);
    fixture.put("d1", "Chargeback window", "Payouts settle after the chargeback window closes.", new float[] {1, 0, 0, 0});
    fixture.put("d2", "Velocity rules", "Velocity checks flag many payouts from one device.", new float[] {0.6f, 0.8f, 0, 0});
    fixture.put("d3", "Seller review", "A seller review reads the chargeback history first.", new float[] {0, 0, 1, 0});
    // Enough other chunks that a limit the server does not know (it assumes a tenth of the rows) makes the vector
    // statement's plan dearer: with LIMIT $n it was planned for every execution from about 3,000 chunks on. Written
    // in two statements; their vectors are spread over the half of the sphere facing away from the queries below.
    String text = "'Ledger entry ' || i || ' for merchant settlement.'";
    await(fixture.db.pool().query("INSERT INTO documents (id, namespace, title, text, content_hash, chunk_count)"
        + " SELECT 'f' || i, 'default', 'Ledger ' || i, " + text + ", md5(i::text), 1"
        + " FROM generate_series(1, " + FILLERS + ") i").execute());
    await(fixture.db.pool().query("INSERT INTO chunks (document_id, idx, total, text, namespace, title, embedding)"
        + " SELECT 'f' || i, 0, 1, " + text + ", 'default', 'Ledger ' || i, ('[' || -abs(sin(i)) || ','"
        + " || cos(1.3 * i) || ',' || sin(0.7 * i) || ',' || cos(2.1 * i) || ']')::vector"
        + " FROM generate_series(1, " + FILLERS + ") i").execute());
    fixture.analyze();
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  @Test
  void unfilteredLegStatementsArePlannedOnceForAllExecutions() {
    Database one = await(Database.postgres(fixture.vertx, fixture.pg.conf().withPoolSize(1)));
    try {
      PgKnowledgeStore store = new PgKnowledgeStore(one, fixture.pg.conf());
      Map<String, Supplier<Future<List<ScoredChunk>>>> legs = Map.of(
          "vector", () -> store.vectorSearch(new float[] {1, 0.1f, 0, 0}, 2, SearchFilter.NONE),
          "keyword", () -> store.keywordSearch("chargeback payouts", 2, SearchFilter.NONE),
          "trigram", () -> store.trigramSearch("chargebak", 2, SearchFilter.NONE));
      Map<String, List<String>> first = new HashMap<>();
      for (int round = 0; round < ROUNDS; round++) {
        for (var leg : legs.entrySet()) {
          List<String> hits = await(leg.getValue().get()).stream().map(ScoredChunk::documentId).toList();
          List<String> expected = first.computeIfAbsent(leg.getKey(), k -> hits);
          assertEquals(expected, hits, leg.getKey() + ", round " + round);
        }
      }
      assertEquals(List.of("d1", "d2"), first.get("vector"));
      assertEquals(Set.of("d1", "d3"), Set.copyOf(first.get("trigram")));
      assertEquals("d1", first.get("keyword").get(0));

      // Same connection (a pool of one): each leg's statement, with its count of generic and custom plans.
      // (The trigram statement is left to the server's choice: it weighs its arrays' lengths, which a generic plan
      // does not know, and on this table keeps planning each execution.)
      Map<String, String> markers = Map.of("vector", "WITH q AS MATERIALIZED (SELECT $1::text::vector%",
          "keyword", "WITH q AS MATERIALIZED (SELECT $1::text::tsquery%");
      for (var marker : markers.entrySet()) {
        Row plans = await(one.pool().preparedQuery("SELECT count(*) AS statements, coalesce(sum(generic_plans), 0)"
            + " AS generic, coalesce(sum(custom_plans), 0) AS custom FROM pg_prepared_statements WHERE statement LIKE $1")
            .execute(Tuple.of(marker.getValue()))).iterator().next();
        String leg = marker.getKey();
        assertEquals(1, plans.getLong("statements"), leg + ": one statement, kept prepared");
        assertEquals(ROUNDS - 5, plans.getLong("generic"), leg + ": generic plans after the first five");
        assertEquals(5, plans.getLong("custom"), leg);
      }
    } finally {
      await(one.close());
    }
  }

  @Test
  void aFilteredStatementBindsItsLimitAndStillFilters() {
    for (int round = 0; round < ROUNDS; round++) {
      List<ScoredChunk> kept = await(fixture.store.vectorSearch(new float[] {1, 0.1f, 0, 0}, 2,
          new SearchFilter("default", List.of())));
      assertEquals(List.of("d1", "d2"), kept.stream().map(ScoredChunk::documentId).toList());
      assertTrue(await(fixture.store.vectorSearch(new float[] {1, 0, 0, 0}, 2, new SearchFilter("elsewhere", List.of())))
          .isEmpty());
      assertEquals(List.of("d1"), await(fixture.store.keywordSearch("window", 2, new SearchFilter("default", List.of())))
          .stream().map(ScoredChunk::documentId).toList());
      assertTrue(await(fixture.store.keywordSearch("window", 2, new SearchFilter("elsewhere", List.of()))).isEmpty());
    }
    List<Object> params = new ArrayList<>(List.of("v"));
    PgFilterSql.Clauses filtered = PgFilterSql.clauses(new SearchFilter("default", List.of()), 7, params);
    assertEquals(" AND c.namespace = $2", filtered.where());
    assertEquals(" LIMIT $3", filtered.limit());
    assertEquals(List.of("v", "default", 7), params);
    assertEquals(new PgFilterSql.Clauses("", " LIMIT 7"), PgFilterSql.clauses(SearchFilter.NONE, 7, new ArrayList<>()));
    // The HNSW scan goes on past its first candidates only when the statement filters (the same hits otherwise).
    assertEquals("relaxed_order", PgSearchLegs.iterativeScan(filtered));
    assertEquals("off", PgSearchLegs.iterativeScan(PgFilterSql.clauses(SearchFilter.NONE, 7, new ArrayList<>())));
  }

  @Test
  void theNextStatementRunsOutsideTheLegsTransactionWithTheServersSettings() {
    Database one = await(Database.postgres(fixture.vertx, fixture.pg.conf().withPoolSize(1)));
    try {
      PgKnowledgeStore store = new PgKnowledgeStore(one, fixture.pg.conf());
      assertEquals(OUTSIDE, state(one), "before any leg");
      for (int round = 0; round < 3; round++) {
        assertEquals(List.of("d1", "d2"), ids(await(store.vectorSearch(new float[] {1, 0.1f, 0, 0}, 2, SearchFilter.NONE))));
        assertEquals(OUTSIDE, state(one), "after the vector leg, round " + round);
        assertEquals(List.of("d1", "d3"), ids(await(store.trigramSearch("chargebak", 2, SearchFilter.NONE))).stream()
            .sorted().toList());
        assertEquals(OUTSIDE, state(one), "after the trigram leg, round " + round);
      }
      // A statement that fails (a query vector of the wrong dimension) fails the leg; COMMIT rolls back the aborted
      // transaction, and the one connection serves the next search.
      assertThrows(RuntimeException.class,
          () -> await(store.vectorSearch(new float[] {1, 0, 0}, 2, SearchFilter.NONE)));
      assertEquals(OUTSIDE, state(one), "after a failed vector leg");
      assertEquals(List.of("d1", "d2"), ids(await(store.vectorSearch(new float[] {1, 0.1f, 0, 0}, 2, SearchFilter.NONE))));
    } finally {
      await(one.close());
    }
  }

  private static String state(Database db) {
    Row row = await(db.pool().query(STATE).execute()).iterator().next();
    return row.getString("state");
  }

  private static List<String> ids(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::documentId).toList();
  }
}
