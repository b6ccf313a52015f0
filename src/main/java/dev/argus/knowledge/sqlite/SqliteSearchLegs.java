package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The three retrieval legs of the embedded store, each a search of an in-memory index off the event loop followed
 * by one fetch of the hits' rows: the vector leg scans the {@link VectorIndex}; the keyword leg ranks BM25 over
 * stemmed words and the trigram leg BM25 over the query's rarest trigrams, both in the {@link TextIndex}. Filters
 * apply inside each leg, before its top-k cut.
 */
final class SqliteSearchLegs {

  private static final int MAX_K = 10_000;

  private final Vertx vertx;
  private final Pool pool;
  private final VectorIndex index;
  private final TextIndex text;

  SqliteSearchLegs(Vertx vertx, Pool pool, VectorIndex index, TextIndex text) {
    this.vertx = vertx;
    this.pool = pool;
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
      List<VectorIndex.Hit> hits = index.search(unit, limit, filter);
      long[] ids = new long[hits.size()];
      double[] scores = new double[hits.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = hits.get(i).chunkId();
        scores[i] = hits.get(i).score();
      }
      return new Ranked(ids, scores);
    }, false).compose(this::rows);
  }

  // ---------------------------------------------------------------- keyword leg

  /** Keyword leg: the query's word terms ({@link QueryTerms#wordTerms}: stop words out, at most 64), stemmed. */
  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    List<String> words = QueryTerms.wordTerms(query);
    if (words.isEmpty() || k <= 0) {
      return Future.succeededFuture(List.of());
    }
    int limit = Math.min(k, MAX_K);
    return vertx.executeBlocking(() -> Ranked.of(text.keyword(TextAnalysis.stems(words), limit, filter)), false)
        .compose(this::rows);
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
    return vertx.executeBlocking(() -> Ranked.of(text.trigram(grams, limit, filter)), false).compose(this::rows);
  }

  /** Chunk ids with their scores, best first. */
  private record Ranked(long[] ids, double[] scores) {

    static Ranked of(List<TextIndex.Hit> hits) {
      long[] ids = new long[hits.size()];
      double[] scores = new double[hits.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = hits.get(i).chunkId();
        scores[i] = hits.get(i).score();
      }
      return new Ranked(ids, scores);
    }
  }

  /** The hits' rows in one statement, in the ranking's order (a chunk deleted since the search is left out). */
  private Future<List<ScoredChunk>> rows(Ranked ranked) {
    if (ranked.ids().length == 0) {
      return Future.succeededFuture(List.of());
    }
    List<Object> ids = new ArrayList<>(ranked.ids().length);
    for (long id : ranked.ids()) {
      ids.add(id);
    }
    return pool.preparedQuery(SqliteSql.hitsByChunkIds(ids.size())).execute(Tuple.wrap(ids)).map(rows -> {
      Map<Long, Row> byId = new HashMap<>();
      for (Row r : rows) {
        byId.put(r.getLong("chunk_id"), r);
      }
      List<ScoredChunk> out = new ArrayList<>(ids.size());
      for (int i = 0; i < ranked.ids().length; i++) {
        Row r = byId.get(ranked.ids()[i]);
        if (r != null) {
          out.add(toHit(r, ranked.scores()[i]));
        }
      }
      return out;
    });
  }

  private static ScoredChunk toHit(Row r, double score) {
    return new ScoredChunk(r.getString("document_id"), r.getString("namespace"), r.getString("title"),
        r.getInteger("idx"), r.getInteger("total"), r.getString("text"), score, new JsonObject(r.getString("metadata")));
  }
}
