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
import java.util.List;

/**
 * The three retrieval legs of the PostgreSQL store, each filtering inside its own scan ({@link PgFilterSql}).
 *
 * <p>Vector leg: sets {@code hnsw.ef_search} ({@code pg.efSearch}) and {@code hnsw.iterative_scan = relaxed_order}
 * for its transaction only, and keeps the planner off a sequential scan (on 5,183 chunks it chose one at ef_search
 * 200 and read every vector: 10.7 ms instead of 1.4). It re-sorts the materialized hits by distance and, when a
 * selective filter leaves the index scan with fewer than k hits, repeats the query as an exact scan so that a
 * filtered query still returns its true top-k.
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

  PgSearchLegs(Pool pool, PgConf conf) {
    this.pool = pool;
    this.conf = conf;
  }

  // ---------------------------------------------------------------- vector leg

  Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    if (k <= 0) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(new PGvector(query).toString());
    params.add(k);
    String sql = PgSql.vectorSql(PgFilterSql.where(filter, params));
    Tuple args = Tuple.from(params);
    return pool.withTransaction(conn -> conn.preparedQuery(PgSql.VECTOR_SETTINGS)
            .execute(Tuple.of(Integer.toString(Math.max(conf.efSearch(), k))))
            .compose(v -> conn.preparedQuery(sql).execute(args))
            .compose(rows -> {
              if (rows.size() >= k) {
                return Future.succeededFuture(rows);
              }
              // The approximate scan stopped early (a selective filter): the exact scan is cheap for few rows.
              return conn.query(PgSql.EXACT_SCAN).execute().compose(v -> conn.preparedQuery(sql).execute(args));
            }))
        .map(PgSearchLegs::toScored);
  }

  // ---------------------------------------------------------------- keyword leg

  /**
   * Keyword leg: BM25 over the English lexemes ({@code tsv}), in two statements: the query's terms with their
   * statistics ({@link PgSql#keywordTermsSql}), then the candidate chunks scored on every term ({@link PgSql#keywordSql}).
   */
  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    return pool.preparedQuery(PgSql.keywordTermsSql()).execute(Tuple.of(q)).compose(rows -> {
      // The rows come rarest first; terms no chunk holds match nothing and are left out.
      List<String> terms = new ArrayList<>();
      List<Double> df = new ArrayList<>();
      List<Double> idf = new ArrayList<>();
      double avgdl = 1;
      for (Row r : rows) {
        if (terms.size() == MAX_KEYWORD_TERMS) {
          break;
        }
        Double mean = r.getDouble("avgdl"); // never NULL (PgSql), but a NULL must not become a 500
        avgdl = mean == null ? 1 : Math.max(1, mean);
        if (r.getDouble("df") > 0) {
          terms.add(r.getString("term"));
          df.add(r.getDouble("df"));
          idf.add(r.getDouble("idf"));
        }
      }
      int n = terms.size();
      if (n == 0) {
        return Future.succeededFuture(List.of());
      }
      double[] frequencies = df.stream().mapToDouble(Double::doubleValue).toArray();
      StringBuilder candidates = new StringBuilder();
      for (int c : keywordCandidates(frequencies, Math.max(conf.keywordPostings(), 2 * k))) {
        candidates.append(candidates.length() == 0 ? "" : " | ").append(tsqueryLiteral(terms.get(c)));
      }
      List<Object> params = new ArrayList<>();
      params.add(candidates.toString());
      params.add(k);
      params.add(avgdl);
      for (int t = 0; t < n; t++) {
        params.add(tsqueryLiteral(terms.get(t)));
        params.add(idf.get(t));
      }
      String where = PgFilterSql.where(filter, params);
      return pool.preparedQuery(PgSql.keywordSql(n, where)).execute(Tuple.from(params)).map(PgSearchLegs::toScored);
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
   * Trigram leg: BM25 over pg_trgm trigrams ({@code tgv}), like the embedded store's FTS5 trigram leg: the
   * {@link #TRIGRAMS_KEPT} rarest trigrams of the query that some chunk holds take part (all of a short query's),
   * and a chunk must hold at least {@link #MIN_TRIGRAM_SHARE} of them, so one common trigram makes no match.
   */
  Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(q);
    params.add(k);
    String where = PgFilterSql.where(filter, params);
    return pool.preparedQuery(PgSql.trigramSql(where, TRIGRAMS_KEPT, MIN_TRIGRAM_SHARE, conf.trigramPostings()))
        .execute(Tuple.from(params))
        .map(PgSearchLegs::toScored);
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
