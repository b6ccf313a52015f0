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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The three retrieval legs of the embedded store: the vector leg scans the in-memory {@link VectorIndex} off the
 * event loop and fetches the hits' rows; the keyword leg ranks FTS5 BM25 over stemmed words; the trigram leg ranks
 * FTS5 BM25 over the query's rarest trigrams and keeps the chunks that hold a share of them. Filters apply inside
 * each leg, before its top-k cut.
 */
final class SqliteSearchLegs {

  private static final int MAX_K = 10_000;
  /** Minimum fraction of the query's trigrams a trigram hit must contain. */
  static final double MIN_TRIGRAM_SHARE = 0.3;
  /** How many trigrams of a long query take part in the trigram leg (the rarest ones). */
  static final int TRIGRAMS_KEPT = 24;

  private final Vertx vertx;
  private final Pool pool;
  private final VectorIndex index;

  SqliteSearchLegs(Vertx vertx, Pool pool, VectorIndex index) {
    this.vertx = vertx;
    this.pool = pool;
    this.index = index;
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
    return vertx.executeBlocking(() -> index.search(unit, limit, filter), false).compose(hits -> {
      if (hits.isEmpty()) {
        return Future.succeededFuture(List.<ScoredChunk>of());
      }
      List<Object> ids = new ArrayList<>(hits.size());
      for (VectorIndex.Hit hit : hits) {
        ids.add(hit.chunkId());
      }
      return pool.preparedQuery(SqliteSql.hitsByChunkIds(ids.size())).execute(Tuple.wrap(ids)).map(rows -> {
        Map<Long, Row> byId = new HashMap<>();
        for (Row r : rows) {
          byId.put(r.getLong("chunk_id"), r);
        }
        List<ScoredChunk> out = new ArrayList<>(hits.size());
        for (VectorIndex.Hit hit : hits) {
          Row r = byId.get(hit.chunkId());
          if (r != null) { // deleted between scan and fetch
            out.add(toHit(r, hit.score()));
          }
        }
        return out;
      });
    });
  }

  // ---------------------------------------------------------------- keyword leg

  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    return ftsSearch(SqliteSql.KEYWORD_TABLE, FtsQueries.keywordMatch(query), k, filter);
  }

  // ---------------------------------------------------------------- trigram leg

  /**
   * Trigram leg: the query's distinct trigrams OR-ed, ranked by BM25 (chunks sharing more, and rarer, trigrams
   * first). Long queries keep only their {@link #TRIGRAMS_KEPT} rarest trigrams (document frequencies from
   * the FTS5 vocabulary), which keeps the leg fast on natural-language questions; short queries (identifiers,
   * emails, typos) keep all. A chunk must also contain at least {@link #MIN_TRIGRAM_SHARE} of the kept trigrams
   * (title or text), so one common trigram such as "ion" does not make a match; the share is checked on a
   * candidate list a few times longer than k, after the metadata filters.
   */
  Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    List<String> grams = FtsQueries.trigrams(query);
    if (grams.isEmpty() || k <= 0) {
      return Future.succeededFuture(List.of());
    }
    int candidates = Math.min(MAX_K, k * 3 + 20);
    return rarest(grams).compose(kept -> ftsSearch(SqliteSql.TRIGRAM_TABLE, FtsQueries.orJoin(kept), candidates, filter)
        .map(hits -> {
          List<ScoredChunk> out = new ArrayList<>(Math.min(k, hits.size()));
          for (ScoredChunk hit : hits) {
            if (out.size() >= k) {
              break;
            }
            if (FtsQueries.trigramShare(kept, hit.title(), hit.text()) >= MIN_TRIGRAM_SHARE) {
              out.add(hit);
            }
          }
          return out;
        }));
  }

  /** The {@link #TRIGRAMS_KEPT} trigrams with the lowest document frequency (all of them for short queries). */
  private Future<List<String>> rarest(List<String> grams) {
    if (grams.size() <= TRIGRAMS_KEPT) {
      return Future.succeededFuture(grams);
    }
    return pool.preparedQuery(SqliteSql.trigramFrequencies(grams.size())).execute(Tuple.wrap(new ArrayList<Object>(grams)))
        .map(rows -> {
          Map<String, Long> df = new HashMap<>();
          for (Row r : rows) {
            df.put(r.getString("term"), r.getLong("doc"));
          }
          // Trigrams no chunk holds cannot match; among the others the rarest discriminate best.
          List<String> present = new ArrayList<>(grams.stream().filter(df::containsKey).toList());
          present.sort(Comparator.comparingLong(df::get));
          return present.isEmpty() ? grams.subList(0, TRIGRAMS_KEPT)
              : present.subList(0, Math.min(TRIGRAMS_KEPT, present.size()));
        });
  }

  /** One FTS5 leg ({@link SqliteSql#fts}): MATCH with the built expression, the best {@code k} by BM25. */
  private Future<List<ScoredChunk>> ftsSearch(String table, String match, int k, SearchFilter filter) {
    if (match == null || k <= 0) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(match);
    StringBuilder conditions = new StringBuilder();
    if (filter != null && !filter.isEmpty()) {
      MetadataFilters.appendSql(filter, conditions, params);
    }
    params.add(Math.min(k, MAX_K));
    return pool.preparedQuery(SqliteSql.fts(table, conditions.toString())).execute(Tuple.wrap(params)).map(rows -> {
      List<ScoredChunk> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(toHit(r, -r.getDouble("rank_value")));
      }
      return out;
    });
  }

  private static ScoredChunk toHit(Row r, double score) {
    return new ScoredChunk(r.getString("document_id"), r.getString("namespace"), r.getString("title"),
        r.getInteger("idx"), r.getInteger("total"), r.getString("text"), score, new JsonObject(r.getString("metadata")));
  }
}
