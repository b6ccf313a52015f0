package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The text legs' statistics where they are weakest: an empty table (no row, no planner statistics: N = 0 and no
 * mean length) and a table filled after its last ANALYZE (N from the statistics is smaller than a new term's exact
 * document frequency). Neither may fail a search or turn a score negative.
 */
class PgFreshStatisticsTest {

  private PgTestStore fixture;

  @BeforeEach
  void open() {
    fixture = PgTestStore.open("test-model", 4);
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void anEmptyStoreAnswersEveryLegWithNothing() {
    PgKnowledgeStore store = fixture.store;
    assertEquals(List.of(), await(store.keywordSearch("chargeback dispute", 10, SearchFilter.NONE)));
    assertEquals(List.of(), await(store.trigramSearch("chargebak", 10, SearchFilter.NONE)));
    assertEquals(List.of(), await(store.vectorSearch(new float[] {1, 0, 0, 0}, 10, SearchFilter.NONE)));
    assertEquals(List.of(), await(store.keywordSearch("chargeback", 10, new SearchFilter("other", List.of()))));
  }

  /**
   * Three chunks of two lexemes each are analysed (N = reltuples = 3, mean length 2), then 20 chunks holding the
   * unlisted lexeme "zebra" arrive. "zebra" is counted exactly: df = 20 > N. With N = df its idf is
   * ln(1 + 0.5 / 20.5) = 0.0240975 (with the stale N it was ln(1 + (3 - 20 + 0.5) / 20.5) = -1.634, a negative
   * score). Each zebra chunk: title "Stripes", text "zebra": tf 1, dl 2 = avgdl, so BM25 = idf * 2.2 / (1 + 1.2) = idf.
   */
  @Test
  void aTermInMoreChunksThanStaleStatisticsCountKeepsAPositiveIdf() {
    for (String title : List.of("Alpha", "Gamma", "Delta")) {
      put(title.toLowerCase(), title, "beta");
    }
    fixture.analyze();
    for (int i = 0; i < 20; i++) {
      put("z" + i, "Stripes", "zebra");
    }
    List<ScoredChunk> hits = await(fixture.store.keywordSearch("zebra", 30, SearchFilter.NONE));
    assertEquals(20, hits.size());
    double idf = Math.log(1 + 0.5 / 20.5);
    for (ScoredChunk hit : hits) {
      assertEquals(idf, hit.score(), 1e-6, hit.documentId());
    }
  }

  private void put(String id, String title, String text) {
    fixture.put(id, title, text, new float[] {0, 1, 0, 0});
  }
}
