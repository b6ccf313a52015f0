package dev.argus.knowledge.pg;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * How the keyword leg analyses text ({@code V19__keyword_hyphenated_parts.sql}, {@link PgTextSql#KEYWORD_TERMS}): a
 * hyphenated word counts as its parts only, in chunks and in queries alike, so a chunk that writes it with a hyphen
 * and one that writes it with a blank hold the same lexemes and score the same.
 */
class PgKeywordAnalysisTest {

  private static PgTestStore fixture;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("test-model", 4);
    // Lexemes: h = {hyphen, anti, inflammatori, drug}, s = {space, anti, inflammatori, drug}: dl 4 each, avgdl 4.
    fixture.put("h", "Hyphen", "anti-inflammatory drugs", new float[] {1, 0, 0, 0});
    fixture.put("s", "Spaced", "anti inflammatory drugs", new float[] {0, 1, 0, 0});
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  @Test
  void aHyphenatedWordIsIndexedAndSearchedAsItsParts() {
    Set<String> lexemes = await(fixture.db.pool().query("SELECT unnest(tsvector_to_array(tsv)) FROM chunks"
        + " WHERE document_id = 'h'").execute()).stream().map(r -> r.getString(0)).collect(Collectors.toSet());
    assertEquals(Set.of("hyphen", "anti", "inflammatori", "drug"), lexemes);

    // Either spelling of the query, before and after ANALYZE: two terms, N = 2, df = 2, idf = ln(1 + 0.5 / 2.5);
    // tf = 1 and dl = avgdl, so each term scores idf * 2.2 / (1 + 1.2) = idf.
    for (int round = 0; round < 2; round++) {
      for (String query : List.of("anti-inflammatory", "anti inflammatory")) {
        List<ScoredChunk> hits = await(fixture.store.keywordSearch(query, 10, SearchFilter.NONE));
        assertEquals(Set.of("h", "s"), hits.stream().map(ScoredChunk::documentId).collect(Collectors.toSet()), query);
        for (ScoredChunk hit : hits) {
          assertEquals(2 * Math.log(1.2), hit.score(), 1e-9, query + ": " + hit.documentId());
        }
      }
      fixture.analyze();
    }
  }
}
