package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The text legs' term statistics held in memory ({@link PgTermStatistics}): read once per {@code ANALYZE}, read
 * again after the next one, and giving the same terms, frequencies and scores as reading them in SQL on every query.
 */
class PgTermStatisticsTest {

  private PgTestStore fixture;

  @BeforeEach
  void open() {
    fixture = PgTestStore.open("test-model", 4);
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  /**
   * a = {alpha, fraud, ring} (dl 3), b = {fraud, seller, review, process} (dl 4), c = {gamma, chargeback, disput}
   * (dl 3); then six chunks "Note" / "fraud" = {note, fraud} (dl 2). After the second ANALYZE: N = 9,
   * df(fraud) = 8, avgdl = (3 + 4 + 3 + 6 * 2) / 9 = 22/9, idf = ln(1 + (9 - 8 + 0.5) / 8.5); a note chunk (tf 1,
   * dl 2) scores idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / (22/9))).
   */
  @Test
  void statisticsAreReadOncePerAnalysisAndAgainAfterTheNext() {
    put("a", "Alpha", "fraud fraud ring");
    put("b", "Fraud", "seller review process");
    put("c", "Gamma", "chargeback dispute");
    fixture.analyze();
    PgTermStatistics held = fixture.store.termStatistics();
    for (int i = 0; i < 5; i++) {
      await(fixture.store.keywordSearch("fraud ring", 10, SearchFilter.NONE));
      await(fixture.store.trigramSearch("chargebak", 10, SearchFilter.NONE));
    }
    assertEquals(1, held.reads(), "one read for ten searches after one ANALYZE");

    for (int i = 0; i < 6; i++) {
      put("n" + i, "Note", "fraud");
    }
    await(fixture.store.keywordSearch("fraud", 10, SearchFilter.NONE));
    assertEquals(1, held.reads(), "no new analysis, no new read");

    fixture.analyze();
    List<ScoredChunk> hits = await(fixture.store.keywordSearch("fraud", 10, SearchFilter.NONE));
    assertEquals(2, held.reads(), "the new analysis is read once");
    double idf = Math.log(1 + 1.5 / 8.5);
    double note = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / (22.0 / 9)));
    ScoredChunk n0 = hits.stream().filter(h -> h.documentId().equals("n0")).findFirst().orElseThrow();
    assertEquals(note, n0.score(), 1e-4);
    assertEquals(8, hits.size());
  }

  /** Over a larger corpus, the held statistics give exactly what the statement reading pg_stats gives. */
  @Test
  void heldStatisticsAgreeWithTheStatisticsReadInSql() {
    String[] words = {"chargeback", "dispute", "seller", "refund", "merchant", "payout", "ledger", "velocity",
        "device", "account", "review", "policy", "fraud", "ring", "mule"};
    for (int i = 0; i < 120; i++) {
      StringBuilder text = new StringBuilder();
      for (int w = 0; w < words.length; w++) {
        if ((i + 1) % (w + 2) == 0 || w == i % words.length) {
          text.append(words[w]).append(' ');
        }
      }
      put("d" + i, "Case " + (i % 7), text.toString().trim() + " item" + i);
    }
    fixture.analyze();
    PgSearchLegs legs = new PgSearchLegs(fixture.db.pool(), fixture.pg.conf());
    for (String q : List.of("chargeback dispute", "mule ring device", "payout ledger item7 item77",
        "refund policy review case", "unheard-of words only")) {
      PgQueryTerms held = await(legs.keywordTerms(q));
      PgQueryTerms inSql = PgQueryTerms.fromRows(await(fixture.db.pool().preparedQuery(PgTextSql.keywordTermsSql())
          .execute(Tuple.of(q))));
      assertEquals(inSql.terms(), held.terms(), q);
      assertArrayEquals(inSql.df(), held.df(), 1e-9, q);
      assertArrayEquals(inSql.idf(), held.idf(), 1e-12, q);
      assertEquals(inSql.avgdl(), held.avgdl(), 1e-12, q);
    }
    for (String q : List.of("chargebak", "velocty device", "ledger payout merchant review")) {
      List<String> held = new ArrayList<>();
      await(legs.trigramSearch(q, 10, SearchFilter.NONE)).forEach(h -> held.add(h.documentId() + " " + round(h.score())));
      List<String> inSql = new ArrayList<>();
      for (Row r : await(fixture.db.pool().preparedQuery(PgTextSql.trigramSql(PgFilterSql.clauses(SearchFilter.NONE, 10, new ArrayList<>()), PgSearchLegs.TRIGRAMS_KEPT,
          PgSearchLegs.MIN_TRIGRAM_SHARE, fixture.pg.conf().trigramPostings())).execute(Tuple.of(q)))) {
        inSql.add(r.getString("document_id") + " " + round(r.getDouble("score")));
      }
      assertEquals(inSql, held, q);
    }
    assertEquals(1, legs.termStatistics().reads());
    PgTermStatistics.Snapshot snapshot = legs.termStatistics().held();
    assertTrue(snapshot.keyword() != null && snapshot.trigram() != null, "both columns' statistics are held");
  }

  private static String round(double score) {
    return String.format("%.9f", score);
  }

  private void put(String id, String title, String text) {
    fixture.put(id, title, text, new float[] {1, 0, 0, 0});
  }
}
