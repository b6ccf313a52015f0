package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BM25 of the PostgreSQL text legs ({@link PgSql}, {@link PgSearchLegs}) against hand-computed scores, both before the table has
 * planner statistics (terms counted exactly) and after {@code ANALYZE} (terms read from the statistics).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PgTermRankingTest {

  private static PgTestStore fixture;
  private static PgTestDatabase pg;
  private static Database db;
  private static PgKnowledgeStore store;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("test-model", 4);
    pg = fixture.pg;
    db = fixture.db;
    store = fixture.store;
    // Distinct lexemes per chunk (title + text): a = {alpha, fraud, ring} 3, b = {fraud, seller, review, process} 4,
    // c = {gamma, chargeback, disput} 3; avgdl = 10/3.
    put("a", "Alpha", "fraud fraud ring");
    put("b", "Fraud", "seller review process");
    put("c", "Gamma", "chargeback dispute");
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  private static void put(String id, String title, String text) {
    fixture.put(id, title, text, new float[] {1, 0, 0, 0});
  }

  /**
   * "fraud": N = 3, df = 2, idf = ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln 1.6 = 0.4700036.
   * a: tf = 2 (two text positions), dl = 3: 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3 / (10/3))) = 4.4 / 3.11.
   * b: tf = 1 text position + 1 for the title (weight A counts twice) = 2, dl = 4: 4.4 / (2 + 1.2 * 1.15) = 4.4 / 3.38.
   */
  private static void assertHandComputedKeywordScores() {
    double idf = Math.log(1.6);
    List<ScoredChunk> hits = await(store.keywordSearch("Fraud?", 10, SearchFilter.NONE));
    assertEquals(List.of("a", "b"), hits.stream().map(ScoredChunk::documentId).toList());
    assertEquals(idf * 4.4 / 3.11, hits.get(0).score(), 1e-4);
    assertEquals(idf * 4.4 / 3.38, hits.get(1).score(), 1e-4);
    // Two terms: each adds its own BM25 part ("disput": df = 1, idf = ln(1 + 2.5 / 1.5); c: tf 1, dl 3).
    List<ScoredChunk> two = await(store.keywordSearch("fraud OR \"dispute\"", 10, SearchFilter.NONE));
    assertEquals("c", two.get(0).documentId());
    assertEquals(Math.log(1 + 2.5 / 1.5) * 2.2 / (1 + 1.2 * 0.925), two.get(0).score(), 1e-4);
    assertEquals(3, two.size());
  }

  @Test
  @Order(1) // first: the table has no planner statistics yet
  void keywordScoresAreBm25WithAndWithoutPlannerStatistics() {
    assertHandComputedKeywordScores();
    fixture.analyze();
    long listed = await(db.pool().query("SELECT count(*) FROM pg_stats WHERE tablename = 'chunks' AND attname = 'tsv'"
        + " AND most_common_elems IS NOT NULL").execute()).iterator().next().getLong(0);
    assertEquals(1, listed, "ANALYZE gave the tsv column element statistics");
    assertHandComputedKeywordScores();
  }

  @Test
  @Order(2)
  void trigramLegFindsTyposAndNeedsAShareOfTheTrigrams() {
    for (int round = 0; round < 2; round++) {
      assertEquals("b", await(store.trigramSearch("revew proces", 5, SearchFilter.NONE)).get(0).documentId());
      assertEquals("c", await(store.trigramSearch("chargebak", 5, SearchFilter.NONE)).get(0).documentId());
      // One shared trigram ("ing" of "ring") is far below 30% of "ingest pipelines"'s trigrams.
      assertTrue(await(store.trigramSearch("ingest pipelines", 5, SearchFilter.NONE)).isEmpty());
      fixture.analyze();
    }
  }

  @Test
  @Order(3)
  void theTextLegsWorkWithinTheirPostingsBudgets() {
    // 40 more chunks hold "everywhere"; one of them also holds "ledger". N = 43.
    for (int i = 0; i < 40; i++) {
      put("f" + i, "Filler " + i, "words seen everywhere" + (i == 0 ? " and one ledger" : ""));
    }
    // Default budgets: every term selects candidates; f0 (both terms) first, then chunks holding "everywhere".
    List<ScoredChunk> ten = await(store.keywordSearch("everywhere ledger", 10, SearchFilter.NONE));
    assertEquals(10, ten.size());
    assertEquals("f0", ten.get(0).documentId());
    // A budget of 20 postings (2k): "ledger" (1) fits, "everywhere" (40) does not, so only chunks holding "ledger"
    // are candidates -- and "everywhere" still scores them (same score as with the default budget).
    PgKnowledgeStore tight = new PgKnowledgeStore(db, pg.conf().withPostings(1, 1));
    List<ScoredChunk> pruned = await(tight.keywordSearch("everywhere ledger", 10, SearchFilter.NONE));
    assertEquals(List.of("f0"), ids(pruned));
    assertEquals(ten.get(0).score(), pruned.get(0).score(), 1e-9);
    // A long query is scored on its 64 rarest terms: "ledger" (the rarest that some chunk holds) still counts.
    StringBuilder longQuery = new StringBuilder("everywhere ledger");
    for (int i = 0; i < 150; i++) {
      longQuery.append(" word").append(Integer.toString(i, 26).replace('0', 'q'));
    }
    assertEquals("f0", await(store.keywordSearch(longQuery.toString(), 5, SearchFilter.NONE)).get(0).documentId());
    // The trigram leg keeps the rarest trigram that some chunk holds even when its postings exceed the budget.
    assertEquals("c", await(tight.trigramSearch("chargebak", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("f0", await(tight.trigramSearch("ledger", 5, SearchFilter.NONE)).get(0).documentId());
  }

  @Test
  void candidateTermsAreTheRarestWithinTheBudget() {
    assertEquals(List.of(0, 2), PgSearchLegs.keywordCandidates(new double[] {3, 400, 40, 0}, 100));
    assertEquals(List.of(0, 2, 1), PgSearchLegs.keywordCandidates(new double[] {3, 400, 40, 0}, 1000));
    // The rarest term that some chunk holds is always a candidate; terms no chunk holds never are.
    assertEquals(List.of(1), PgSearchLegs.keywordCandidates(new double[] {600, 500, 0}, 10));
    assertEquals(List.of(), PgSearchLegs.keywordCandidates(new double[] {0, 0}, 10));
  }

  @Test
  void lexemesAreQuotedForTsqueryInput() {
    assertEquals("'it''s'", PgSearchLegs.tsqueryLiteral("it's"));
    assertEquals("'a\\\\b'", PgSearchLegs.tsqueryLiteral("a\\b"));
  }

  private static List<String> ids(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::documentId).toList();
  }
}
