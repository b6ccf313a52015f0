package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The keyword leg's statement ({@link PgTextSql#keywordSql}): it reads a chunk's lexeme vector in place when it is
 * stored in the row and detoasts it once when it is not ({@link PgTextSql#KEYWORD_VECTOR}), both kinds of row scoring
 * as BM25 computed by hand; and a connection keeps it prepared however many terms make it long.
 */
class PgKeywordStatementTest {

  /** Distinct numbers: lexemes the English configuration keeps as they are (no stemming, no stop words). */
  private static final int NUMBERS = 1_200;

  private static PgTestStore fixture;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("test-model", 4);
    // small: {small, zebrafish}, dl 2. large: {larg, zebrafish, 1,200 numbers}, dl 1,202; "zebrafish" twice.
    fixture.put("small", "Small", "zebrafish", new float[] {1, 0, 0, 0});
    StringBuilder numbers = new StringBuilder("zebrafish zebrafish");
    for (int i = 0; i < NUMBERS; i++) {
      numbers.append(' ').append(100_000 + i);
    }
    fixture.put("large", "Large", numbers.toString(), new float[] {0, 1, 0, 0});
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  @Test
  void vectorsInTheRowAndOutOfItScoreAsBm25() {
    // The large chunk's vector does not fit in a page (8 KB), so PostgreSQL stores it out of line; the small
    // one's is in the row, uncompressed.
    var sizes = await(fixture.db.pool().query("SELECT document_id, pg_column_size(tsv) AS size,"
        + " pg_column_compression(tsv) AS compression FROM chunks ORDER BY document_id").execute());
    var rows = sizes.iterator();
    var large = rows.next();
    var small = rows.next();
    assertEquals("large", large.getString("document_id"));
    assertTrue(large.getInteger("size") > 8_192, "out of line: " + large.getInteger("size") + " bytes");
    assertTrue(small.getInteger("size") < 2_048 && small.getString("compression") == null);

    // No statistics yet: counted exactly. N = 2, df = 2, idf = ln(1 + 0.5 / 2.5) = ln 1.2; avgdl = 1,204 / 2.
    for (int round = 0; round < 2; round++) {
      double idf = Math.log(1.2);
      double avgdl = (2 + 2 + NUMBERS) / 2.0;
      List<ScoredChunk> hits = await(fixture.store.keywordSearch("zebrafish", 10, SearchFilter.NONE));
      assertEquals(List.of("small", "large"), hits.stream().map(ScoredChunk::documentId).toList());
      assertEquals(idf * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / avgdl)), hits.get(0).score(), 1e-6);
      assertEquals(idf * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * (2 + NUMBERS) / avgdl)), hits.get(1).score(), 1e-6);
      // A number only the large chunk holds: df = 1, idf = ln(1 + 1.5 / 1.5) = ln 2.
      List<ScoredChunk> number = await(fixture.store.keywordSearch("100777", 10, SearchFilter.NONE));
      assertEquals(List.of("large"), number.stream().map(ScoredChunk::documentId).toList());
      assertEquals(Math.log(2) * 2.2 / (1 + 1.2 * (0.25 + 0.75 * (2 + NUMBERS) / avgdl)), number.get(0).score(),
          1e-6);
      fixture.analyze(); // the second round reads the planner's statistics, which give the same N, df and avgdl
    }
  }

  @Test
  void aLongKeywordStatementStaysPreparedOnItsConnection() {
    // Thirty numbers only the large chunk holds: thirty scored terms, a statement of about 9,300 characters.
    StringBuilder query = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      query.append(' ').append(100_100 + i);
    }
    Database one = await(Database.postgres(fixture.vertx, fixture.pg.conf().withPoolSize(1)));
    try {
      PgKnowledgeStore store = new PgKnowledgeStore(one, fixture.pg.conf());
      for (int round = 0; round < 3; round++) {
        List<ScoredChunk> hits = await(store.keywordSearch(query.toString(), 5, SearchFilter.NONE));
        assertEquals(List.of("large"), hits.stream().map(ScoredChunk::documentId).toList());
      }
      // Same connection (a pool of one): a statement the client does not keep is sent unnamed and is not listed.
      long prepared = await(one.pool().query("SELECT count(*) FROM pg_prepared_statements"
          + " WHERE statement LIKE 'WITH q AS MATERIALIZED%' AND length(statement) > 8000").execute())
          .iterator().next().getLong(0);
      assertEquals(1, prepared, "the 30-term keyword statement is prepared once and kept");
    } finally {
      await(one.close());
    }
  }
}
