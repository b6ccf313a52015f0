package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The vector and trigram legs run their statement in a transaction of their own, with transaction-scoped settings
 * ({@code hnsw.ef_search}, no sequential scan), and answer as soon as the rows are in, before COMMIT is answered.
 * On a pool of one connection: the next statement runs outside any transaction, with the server's settings, after
 * a leg that succeeded and after one whose statement failed.
 */
class PgLegTransactionsTest {

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
    fixture.analyze();
  }

  @AfterAll
  static void close() {
    fixture.close();
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
