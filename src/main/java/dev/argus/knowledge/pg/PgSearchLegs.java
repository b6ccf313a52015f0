package dev.argus.knowledge.pg;

import com.pgvector.PGvector;
import dev.argus.config.PgConf;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The three retrieval legs of the PostgreSQL store, each filtering inside its own scan ({@link PgFilterSql}).
 *
 * <p>Vector leg: sets {@code hnsw.ef_search} ({@code pg.efSearch}) and, when it filters, {@code hnsw.iterative_scan =
 * relaxed_order} ({@link #iterativeScan}) for its transaction only (its statements pipelined: one round trip,
 * {@link #withSettings}), and keeps the planner off a sequential scan (on 5,183 chunks it chose one at ef_search
 * 200 and read every vector: 10.7 ms instead of 1.4). It re-sorts the materialized hits by distance and, when a selective filter leaves the index scan with
 * fewer than k hits, repeats the query as an exact scan so that a filtered query still returns its true top-k.
 *
 * <p>Keyword and trigram legs: BM25 from the planner's term statistics, in SQL ({@link PgSql}); this class chooses
 * the keyword leg's candidate terms within the work bounds ({@code pg.keywordPostings}, {@code pg.trigramPostings}).
 */
final class PgSearchLegs {

  /** Minimum fraction of the query's kept trigrams a trigram hit must hold (as in the embedded store). */
  static final double MIN_TRIGRAM_SHARE = 0.3;
  /** How many trigrams of a long query take part in the trigram leg (the rarest ones). */
  static final int TRIGRAMS_KEPT = 24;
  /** The keyword leg scores at most this many terms of a query, its rarest (as the embedded store's FTS5 leg). */
  static final int MAX_KEYWORD_TERMS = 64;
  /** Query text beyond this is not analysed (search requests are already size-limited before they get here). */
  static final int MAX_QUERY_CHARS = 4000;

  private final Pool pool;
  private final PgConf conf;
  private final PgTermStatistics statistics;

  PgSearchLegs(Pool pool, PgConf conf) {
    this.pool = pool;
    this.conf = conf;
    this.statistics = new PgTermStatistics(pool);
  }

  /** The term statistics the text legs hold in memory. */
  PgTermStatistics termStatistics() {
    return statistics;
  }

  // ---------------------------------------------------------------- vector leg

  Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    if (k <= 0) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(new PGvector(query).toString());
    PgFilterSql.Clauses clauses = PgFilterSql.clauses(filter, k, params);
    Tuple args = Tuple.from(params);
    String ef = Integer.toString(Math.max(conf.efSearch(), k));
    Tuple settings = Tuple.of(ef, iterativeScan(clauses));
    return withSettings(PgSql.VECTOR_SETTINGS, settings, PgSql.vectorSql(query.length, clauses), args)
        .compose(rows -> rows.size() >= k ? Future.succeededFuture(rows)
            // The approximate scan stopped early (a selective filter): the exact scan is cheap for few rows.
            : withSettings(PgSql.EXACT_SCAN, Tuple.tuple(), PgSql.exactVectorSql(clauses), args))
        .map(PgSearchLegs::toScored);
  }

  /**
   * The HNSW scan's iterative mode for a vector statement: {@code relaxed_order} when the statement filters, so that
   * a scan whose first {@code ef_search} candidates hold fewer than k matching rows goes on searching the graph
   * instead of falling back to the exact scan; {@code off} without a filter, where every candidate counts and the
   * first batch always holds k: the same hits, without the bookkeeping of an iterative scan (at 100,000 chunks, 20
   * SciFact query embeddings in {@code psql}, the same 30 hits for each, p50 10.7 ms against 12.8 ms).
   */
  static String iterativeScan(PgFilterSql.Clauses clauses) {
    return clauses.where().isEmpty() ? "off" : "relaxed_order";
  }

  /**
   * {@code sql} in a transaction of its own, after {@code settings} (transaction-scoped {@code set_config} calls).
   * The four statements are sent together, without waiting for each answer (the client pipelines a connection's
   * commands): one round trip instead of four. The answer is the rows: the search does not wait for COMMIT, which
   * for these read-only statements only ends the transaction and frees the scan's memory on the server (0.39 ms
   * at p50 after an HNSW scan at 100,000 chunks, from the server's statement log). The connection goes back to
   * the pool once COMMIT has been answered, so it is never lent out in the middle of a transaction. A failed
   * statement aborts the transaction, which COMMIT then rolls back, so the connection goes back as it came.
   */
  private Future<RowSet<Row>> withSettings(String settings, Tuple settingsArgs, String sql, Tuple args) {
    return pool.getConnection().compose(conn -> {
      Future<?> begin = conn.query(PgSql.BEGIN).execute();
      Future<?> set = conn.preparedQuery(settings).execute(settingsArgs);
      Future<RowSet<Row>> rows = conn.preparedQuery(sql).execute(args);
      conn.query(PgSql.COMMIT).execute().onComplete(done -> conn.close());
      return Future.all(begin, set, rows).map(v -> rows.result());
    });
  }

  /**
   * A statement of the trigram leg, which must look its trigrams up in the GIN index: the trigram table's rows are
   * narrow, so the planner rates reading all of them cheap, but each holds its trigram vector out of line, and a
   * sequential scan unpacks every one (SciFact's 11,529 chunks: 28-36 ms a trigram instead of well under one).
   */
  private Future<RowSet<Row>> byTrigramIndex(String sql, Tuple args) {
    return withSettings(PgSql.NO_SEQUENTIAL_SCAN, Tuple.tuple(), sql, args);
  }

  // ---------------------------------------------------------------- keyword leg

  /**
   * Keyword leg: BM25 over the English lexemes ({@code tsv}): the query's terms with their statistics
   * ({@link #queryTerms}), then the candidate chunks scored on every term ({@link PgTextSql#keywordSql}).
   */
  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    return keywordTerms(q).compose(all -> {
      // Rarest first; terms no chunk holds match nothing and are left out.
      List<Integer> scored = new ArrayList<>();
      for (int i = 0; i < all.size() && scored.size() < MAX_KEYWORD_TERMS; i++) {
        if (all.df()[i] > 0) {
          scored.add(i);
        }
      }
      int n = scored.size();
      if (n == 0) {
        return Future.succeededFuture(List.of());
      }
      double[] frequencies = new double[n];
      for (int t = 0; t < n; t++) {
        frequencies[t] = all.df()[scored.get(t)];
      }
      StringBuilder candidates = new StringBuilder();
      for (int c : keywordCandidates(frequencies, Math.max(conf.keywordPostings(), 2 * k))) {
        candidates.append(candidates.length() == 0 ? "" : " | ").append(tsqueryLiteral(all.terms().get(scored.get(c))));
      }
      List<Object> params = new ArrayList<>();
      params.add(candidates.toString());
      params.add(all.avgdl());
      for (int t : scored) {
        params.add(tsqueryLiteral(all.terms().get(t)));
        params.add(all.idf()[t]);
      }
      PgFilterSql.Clauses clauses = PgFilterSql.clauses(filter, k, params);
      return pool.preparedQuery(PgTextSql.keywordSql(n, clauses)).execute(Tuple.from(params)).map(PgSearchLegs::toScored);
    });
  }

  /**
   * The keyword query's terms with their statistics ({@link #queryTerms}; without statistics held, all of it in
   * SQL, every term counted exactly).
   */
  Future<PgQueryTerms> keywordTerms(String q) {
    return queryTerms(q, PgTextSql.KEYWORD_QUERY_TERMS, PgTermStatistics.Snapshot::keyword,
        rare -> pool.preparedQuery(PgTextSql.KEYWORD_EXACT_DF).execute(rare))
        .compose(terms -> terms != null ? Future.succeededFuture(terms)
            : pool.preparedQuery(PgTextSql.keywordTermsSql()).execute(Tuple.of(q)).map(PgQueryTerms::fromRows));
  }

  /**
   * A text query's terms with their document frequencies and idfs. One statement gives the query's terms (analysed
   * by the database, as the column was) and the time of the table's last analysis; with that analysis's statistics
   * held in memory ({@link PgTermStatistics}), the terms they list take their frequency from there and only the
   * others (rarer ones) are counted, in one more statement. Null for a table never analysed, or without element
   * statistics for the column: the caller then does it all in SQL.
   */
  private Future<PgQueryTerms> queryTerms(String q, String termsSql,
                                          Function<PgTermStatistics.Snapshot, PgTermStatistics.Column> column,
                                          Function<Tuple, Future<RowSet<Row>>> exactDf) {
    return pool.preparedQuery(termsSql).execute(Tuple.of(q)).compose(rows -> {
      Row row = rows.iterator().next();
      String[] terms = row.getArrayOfStrings("terms");
      return statistics.at(row.getString("version")).compose(snapshot -> {
        PgTermStatistics.Column stats = snapshot == null ? null : column.apply(snapshot);
        if (stats == null) {
          return Future.succeededFuture(null);
        }
        Map<String, Double> df = new HashMap<>();
        List<String> rare = new ArrayList<>();
        for (String term : terms) {
          double listed = stats.listedDf(term, snapshot.n());
          if (listed < 0) {
            rare.add(term);
          } else {
            df.put(term, listed);
          }
        }
        Future<Void> counted = rare.isEmpty() ? Future.succeededFuture()
            : exactDf.apply(Tuple.of(rare.toArray(new String[0]))).map(counts -> {
              counts.forEach(r -> df.put(r.getString("term"), r.getDouble("df")));
              return null;
            });
        return counted.map(v -> PgQueryTerms.of(df, snapshot.n(), stats.avgdl()));
      });
    });
  }

  /**
   * The terms whose chunks are the keyword leg's candidates: the rarest first, while their postings fit in
   * {@code budget} ({@code pg.keywordPostings}; at least the rarest term that some chunk holds). The other terms
   * still score every candidate that holds them. Common terms are in a large part of the table, cost most to score
   * and can hardly lift a chunk into the top k alone (Lucene's common-terms idea), and the leg's work stays
   * bounded however large the table grows; on a small store every term fits and the ranking is plain BM25.
   *
   * @param df each term's document frequency, in the order of the terms
   * @return the indexes of the candidate terms, rarest first
   */
  static List<Integer> keywordCandidates(double[] df, int budget) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < df.length; i++) {
      if (df[i] > 0) {
        order.add(i);
      }
    }
    order.sort(Comparator.comparingDouble(i -> df[i]));
    List<Integer> out = new ArrayList<>();
    double postings = 0;
    for (int i : order) {
      if (!out.isEmpty() && postings + df[i] > budget) {
        break;
      }
      out.add(i);
      postings += df[i];
    }
    return out;
  }

  /** One lexeme as tsquery input: quoted, so its characters are never query syntax. */
  static String tsqueryLiteral(String lexeme) {
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  // ---------------------------------------------------------------- trigram leg

  /**
   * Trigram leg: BM25 over pg_trgm trigrams ({@code chunk_trigrams.tgv}), like the embedded store's FTS5 trigram
   * leg: the {@link #TRIGRAMS_KEPT} rarest trigrams of the query that some chunk holds take part (all of a short
   * query's), and a chunk must hold at least {@link #MIN_TRIGRAM_SHARE} of them, so one common trigram makes no match.
   */
  Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    return queryTerms(q, PgTextSql.TRIGRAM_QUERY_TERMS, PgTermStatistics.Snapshot::trigram,
        rare -> byTrigramIndex(PgTextSql.TRIGRAM_EXACT_DF, rare))
        .compose(all -> {
          if (all == null) { // no statistics held: the whole leg in one statement
            List<Object> params = new ArrayList<>(List.of(q));
            PgFilterSql.Clauses clauses = PgFilterSql.clauses(filter, k, params);
            return byTrigramIndex(PgTextSql.trigramSql(clauses, TRIGRAMS_KEPT, MIN_TRIGRAM_SHARE, conf.trigramPostings()),
                Tuple.from(params));
          }
          List<Integer> kept = all.trigramsKept(TRIGRAMS_KEPT, conf.trigramPostings());
          List<String> held = new ArrayList<>();
          List<Double> idfs = new ArrayList<>();
          for (int t : kept) {
            if (all.df()[t] > 0) {
              held.add(tsqueryLiteral(all.terms().get(t)));
              idfs.add(all.idf()[t]);
            }
          }
          if (held.isEmpty()) {
            return Future.succeededFuture((RowSet<Row>) null);
          }
          List<Object> params = new ArrayList<>(List.of(held.toArray(new String[0]), idfs.toArray(new Double[0]),
              kept.size(), all.avgdl()));
          PgFilterSql.Clauses clauses = PgFilterSql.clauses(filter, k, params);
          return byTrigramIndex(PgTextSql.trigramScoredSql(clauses, MIN_TRIGRAM_SHARE), Tuple.from(params));
        })
        .map(rows -> rows == null ? List.<ScoredChunk>of() : toScored(rows));
  }

  /** The query as the text legs analyse it: without NUL characters, at most {@link #MAX_QUERY_CHARS}; null if blank. */
  private static String queryText(String query) {
    String q = PgValues.clean(query);
    if (q == null || q.isBlank()) {
      return null;
    }
    return q.length() > MAX_QUERY_CHARS ? q.substring(0, MAX_QUERY_CHARS) : q;
  }

  private static List<ScoredChunk> toScored(RowSet<Row> rows) {
    List<ScoredChunk> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(new ScoredChunk(r.getString("document_id"), r.getString("namespace"), r.getString("title"),
          r.getInteger("idx"), r.getInteger("total"), r.getString("text"), r.getDouble("score"),
          PgValues.json(r, "metadata")));
    }
    return out;
  }
}
