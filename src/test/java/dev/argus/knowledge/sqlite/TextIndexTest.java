package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded store's text index on its own: BM25 scores, the title weight, the trigram share, filters, removal. */
class TextIndexTest {

  private TextIndex index;

  @BeforeEach
  void fill() {
    index = new TextIndex();
    // words field = title, title, text: A "zebra zebra alpha beta" (4 terms), B "lion lion alpha alpha gamma" (5),
    // C "tiger tiger gamma delta" (4); 3 chunks, average length 13/3.
    put("A", "default", "Zebra", "alpha beta", 1);
    put("B", "other", "Lion", "alpha alpha gamma", 2);
    put("C", "default", "Tiger", "gamma delta", 3);
    index.refresh();
  }

  @AfterEach
  void close() {
    index.close();
  }

  private void put(String doc, String namespace, String title, String text, long chunkId) {
    index.add(new VectorIndex.DocInfo(doc, namespace, new JsonObject().put("n", chunkId)),
        List.of(new TextIndex.Entry(chunkId, 0, 1, title, text)));
  }

  @Test
  void keywordScoresAreBm25OverTitleTwiceAndText() {
    // Lucene's BM25 (k1 1.2, b 0.75), by hand: idf = ln(1 + (N - n + 0.5) / (n + 0.5)),
    // tf part = f / (f + k1 * (1 - b + b * dl / avgdl)), avgdl = 13/3.
    // "alpha": n = 2, idf = ln(1.6) = 0.470004.
    //   B: f 2, dl 5 -> 2 / (2 + 1.2 * (0.25 + 0.75 * 15/13)) = 0.599078 -> 0.281569
    //   A: f 1, dl 4 -> 1 / (1 + 1.2 * (0.25 + 0.75 * 12/13)) = 0.469314 -> 0.220579
    List<TextIndex.Hit> alpha = index.keyword(List.of("alpha"), 10, SearchFilter.NONE);
    assertEquals(List.of(2L, 1L), alpha.stream().map(TextIndex.Hit::chunkId).toList());
    assertEquals(0.281569, alpha.get(0).score(), 1e-4);
    assertEquals(0.220579, alpha.get(1).score(), 1e-4);
    // "zebra" is only in A's title, which counts twice: n = 1, idf = ln(1 + 2.5/1.5) = 0.980829;
    // f 2, dl 4 -> 2 / (2 + 1.130769) = 0.638821 -> 0.626575
    List<TextIndex.Hit> zebra = index.keyword(List.of("zebra"), 10, SearchFilter.NONE);
    assertEquals(1, zebra.size());
    assertEquals(0.626575, zebra.get(0).score(), 1e-4);
    // OR semantics: scores add up over the stems a chunk holds; the top k only.
    List<TextIndex.Hit> both = index.keyword(List.of("alpha", "zebra"), 1, SearchFilter.NONE);
    assertEquals(1L, both.get(0).chunkId());
    assertEquals(0.220579 + 0.626575, both.get(0).score(), 1e-4);
  }

  @Test
  void filtersApplyInsideTheSearchBeforeTheTopKCut() {
    // B is the best "alpha" chunk but in another namespace: the top 1 of namespace default is A.
    List<TextIndex.Hit> hits = index.keyword(List.of("alpha"), 1, SearchFilter.namespace("default"));
    assertEquals(List.of(1L), hits.stream().map(TextIndex.Hit::chunkId).toList());
    SearchFilter metadata = new SearchFilter(null, List.of(new MetadataCondition("n", MetadataCondition.Op.GTE, List.of(2))));
    assertEquals(List.of(2L, 3L), index.keyword(List.of("gamma"), 10, metadata).stream()
        .map(TextIndex.Hit::chunkId).sorted().toList());
    assertTrue(index.trigram(QueryTerms.trigrams("zebra"), 10, SearchFilter.namespace("other")).isEmpty());
  }

  @Test
  void trigramHitsHoldAShareOfTheQuerysTrigrams() {
    // "zebrx": zeb, ebr, brx; A holds 2 of 3 (at least ceil(0.3 x 3) = 1 needed): a typo still finds it.
    assertEquals(List.of(1L), index.trigram(QueryTerms.trigrams("zebrx"), 10, SearchFilter.NONE).stream()
        .map(TextIndex.Hit::chunkId).toList());
    // "gazelle": gaz, aze, zel, ell, lle: no chunk holds one.
    assertTrue(index.trigram(QueryTerms.trigrams("gazelle"), 10, SearchFilter.NONE).isEmpty());
    // "lionxxxxxxyz": lio, ion, onx, nxx, xxx, xxy, xyz; B holds 2, fewer than ceil(0.3 x 7) = 3: no match.
    assertTrue(index.trigram(QueryTerms.trigrams("lionxxxxxxyz"), 10, SearchFilter.NONE).isEmpty());
    // "lionxx": lio, ion, onx, nxx; B holds 2 of ceil(0.3 x 4) = 2 needed: a match.
    assertEquals(List.of(2L), index.trigram(QueryTerms.trigrams("lionxx"), 10, SearchFilter.NONE).stream()
        .map(TextIndex.Hit::chunkId).toList());
  }

  @Test
  void replacedAndRemovedChunksLeaveEveryLeg() {
    index.put(new VectorIndex.DocInfo("A", "default", new JsonObject()),
        List.of(new TextIndex.Entry(7, 0, 1, "Okapi", "epsilon")));
    assertTrue(index.keyword(List.of("zebra"), 10, SearchFilter.NONE).isEmpty());
    assertNull(index.chunk(1));
    assertEquals("epsilon", index.chunk(7).chunk().text());
    assertEquals(List.of(7L), index.keyword(List.of("epsilon"), 10, SearchFilter.NONE).stream()
        .map(TextIndex.Hit::chunkId).toList());
    index.remove("A");
    assertTrue(index.keyword(List.of("epsilon"), 10, SearchFilter.NONE).isEmpty());
    assertTrue(index.trigram(QueryTerms.trigrams("okapi"), 10, SearchFilter.NONE).isEmpty());
    assertEquals(2, index.size());
  }

  @Test
  void searchesRacingAfterAWriteAllSeeIt() throws Exception {
    // The keyword and trigram legs of one search run at the same time on two workers: whichever refreshes the
    // reader after a write, the other must not search the older one (a restart test once caught exactly that).
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < 50; round++) {
        String word = "quokka" + (char) ('a' + round % 26) + round;
        index.put(new VectorIndex.DocInfo("R" + round, "default", new JsonObject()),
            List.of(new TextIndex.Entry(100 + round, 0, 1, "Round", word)));
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        long id = 100 + round;
        List<java.util.concurrent.Future<Boolean>> found = new java.util.ArrayList<>();
        for (int t = 0; t < 4; t++) {
          boolean keyword = t % 2 == 0;
          found.add(pool.submit(() -> {
            go.await();
            List<TextIndex.Hit> hits = keyword ? index.keyword(TextAnalysis.stems(List.of(word)), 5, SearchFilter.NONE)
                : index.trigram(QueryTerms.trigrams(word), 5, SearchFilter.NONE);
            return hits.stream().anyMatch(h -> h.chunkId() == id);
          }));
        }
        go.countDown();
        for (java.util.concurrent.Future<Boolean> f : found) {
          assertTrue(f.get(), "round " + round);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
