package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;

/**
 * The three retrieval legs of the embedded store, each one task off the event loop over in-memory indexes: the
 * vector leg scans the {@link VectorIndex}; the keyword leg ranks BM25 over stemmed words and the trigram leg BM25
 * over the query's rarest trigrams, both in the {@link TextIndex}, which also holds what a hit shows (the chunk's
 * text, position and document), so no leg waits for a database round trip. Filters apply inside each leg, before
 * its top-k cut.
 */
final class SqliteSearchLegs {

  private static final int MAX_K = 10_000;

  private final Vertx vertx;
  private final VectorIndex index;
  private final TextIndex text;

  SqliteSearchLegs(Vertx vertx, VectorIndex index, TextIndex text) {
    this.vertx = vertx;
    this.index = index;
    this.text = text;
  }

  // ---------------------------------------------------------------- vector leg

  Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    if (query == null || query.length == 0) {
      return Future.failedFuture(new IllegalArgumentException("query vector is empty"));
    }
    if (k <= 0) {
      return Future.succeededFuture(List.of());
    }
    float[] unit = Vectors.normalized(query);
    int limit = Math.min(k, MAX_K);
    return vertx.executeBlocking(() -> {
      List<ScoredChunk> out = new ArrayList<>(limit);
      for (VectorIndex.Hit hit : index.search(unit, limit, filter)) {
        add(out, hit.chunkId(), hit.score());
      }
      return out;
    }, false);
  }

  // ---------------------------------------------------------------- keyword leg

  /** Keyword leg: the query's word terms ({@link QueryTerms#wordTerms}: stop words out, at most 64), stemmed. */
  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    List<String> words = QueryTerms.wordTerms(query);
    if (words.isEmpty() || k <= 0) {
      return Future.succeededFuture(List.of());
    }
    int limit = Math.min(k, MAX_K);
    return vertx.executeBlocking(() -> hits(text.keyword(TextAnalysis.stems(words), limit, filter)), false);
  }

  // ---------------------------------------------------------------- trigram leg

  /**
   * Trigram leg: the query's distinct trigrams ({@link QueryTerms#trigrams}), of which the {@link
   * TextIndex#TRIGRAMS_KEPT} rarest take part; chunks sharing more, and rarer, trigrams first, and each holding at
   * least {@link TextIndex#MIN_TRIGRAM_SHARE} of them, so one common trigram such as "ion" does not make a match.
   */
  Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    List<String> grams = QueryTerms.trigrams(query);
    if (grams.isEmpty() || k <= 0) {
      return Future.succeededFuture(List.of());
    }
    int limit = Math.min(k, MAX_K);
    return vertx.executeBlocking(() -> hits(text.trigram(grams, limit, filter)), false);
  }

  private List<ScoredChunk> hits(List<TextIndex.Hit> hits) {
    List<ScoredChunk> out = new ArrayList<>(hits.size());
    for (TextIndex.Hit hit : hits) {
      add(out, hit.chunkId(), hit.score());
    }
    return out;
  }

  /** Adds the hit for chunk {@code chunkId}, unless the chunk was deleted since the search found it. */
  private void add(List<ScoredChunk> out, long chunkId, double score) {
    TextIndex.Held held = text.chunk(chunkId);
    if (held != null) {
      VectorIndex.DocInfo doc = held.owner();
      TextIndex.Entry c = held.chunk();
      out.add(new ScoredChunk(doc.id(), doc.namespace(), c.title(), c.index(), c.total(), c.text(), score,
          doc.metadata().copy()));
    }
  }
}
