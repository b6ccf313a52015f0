package dev.argus.knowledge.pg;

/**
 * BM25 ranking for the two text legs of the PostgreSQL store, in SQL: the keyword leg over {@code tsv} (English
 * lexemes with positions, title weighted A; two statements) and the trigram leg over {@code tgv} (pg_trgm trigrams
 * of title and text, no positions; one statement). Query terms are OR-ed (a chunk needs only some of them; the
 * ranking orders them) and scored with Lucene's BM25, {@code k1} 1.2 and {@code b} 0.75 as SQLite's FTS5
 * {@code bm25()}:
 * {@code sum idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))}, {@code idf(t) = ln(1 + (N - df + 0.5)
 * / (df + 0.5))}, {@code dl} the chunk's number of distinct terms.
 *
 * <p>Statistics come from the planner (kept fresh by autovacuum's ANALYZE, and by {@code migrate-store}), so
 * ingestion writes nothing extra and concurrent writers share no counter row: the column's most common elements
 * and their frequencies give the document frequency of the listed terms; an unlisted term is rarer than those, so
 * its few chunks are counted exactly through the GIN index (a term no chunk holds, such as a misspelt word's
 * trigram, drops out); the length column's most common values and histogram give {@code avgdl};
 * {@code pg_class.reltuples} gives N. A table without statistics yet (new, or just filled, before autovacuum's
 * ANALYZE) counts all of them exactly.
 *
 * <p>Placeholders: {@code $1} the query text, {@code $2} k; filter conditions on alias {@code c} follow.
 */
final class PgTermRanking {

  static final double K1 = 1.2;
  static final double B = 0.75;

  /** The terms of a keyword query: its English lexemes, as the tsv column analyses text. */
  static final String KEYWORD_TERMS = "tsvector_to_array(to_tsvector('english', $1::text))";
  /**
   * The terms of a trigram query: pg_trgm's trigrams, as the tgv column holds them, but for those of two padding
   * blanks and one letter ("a word starts with x"), which nearly every chunk holds and which the embedded store's
   * unpadded trigrams do not have either.
   */
  static final String TRIGRAM_TERMS = "ARRAY(SELECT g FROM unnest(show_trgm($1::text)) AS g WHERE g NOT LIKE '  %')";

  private PgTermRanking() {
  }

  /**
   * First step of the keyword leg: the query's analysed terms with document frequency and idf, and avgdl
   * ({@code term, df, idf, avgdl}, rarest first; no row when the query has no term). Placeholder {@code $1}: the query text.
   */
  static String keywordTermsSql() {
    return "WITH " + termStats("tsv", KEYWORD_TERMS, Integer.MAX_VALUE, 0)
        + " SELECT k.term, k.df, k.idf, n.avgdl FROM k CROSS JOIN n ORDER BY k.df, k.term";
  }

  /**
   * Second step of the keyword leg, document at a time: the candidate chunks (those holding one of the candidate
   * terms, see {@link #keywordCandidates}) are scored on every query term. A term's frequency in a chunk comes
   * from {@code ts_rank} of that one term, which with every weight 1 and no normalization is
   * {@code (1 + 1/4 + ... + 1/tf^2) / (pi^2/6)} (positions in order), so {@code tf = round(1 / (pi^2/6 * (1 - rank))
   * - 1/2)} exactly for the 256 positions a lexeme can hold; with only weight A at 1 the same gives the
   * title's positions (title positions come first), which count twice. This costs far less than unnesting the
   * vector (measured on SciFact, a 13-term query over its 7,873 candidates: about 200 ms with unnest, 94 ms with this).
   *
   * <p>Placeholders: {@code $1} the candidate tsquery, {@code $2} k, {@code $3} avgdl, then per term its
   * one-lexeme tsquery and idf; filter conditions follow.
   *
   * @param terms the number of query terms
   * @param where filter conditions on {@code c}, each starting with {@code AND}
   */
  static String keywordSql(int terms, String where) {
    StringBuilder queries = new StringBuilder("$1::text::tsquery AS cand");
    StringBuilder freqs = new StringBuilder();
    StringBuilder score = new StringBuilder();
    for (int i = 0; i < terms; i++) {
      String tq = "$" + (4 + 2 * i);
      String idf = "$" + (5 + 2 * i) + "::float8";
      queries.append(", ").append(tq).append("::text::tsquery AS t").append(i);
      freqs.append(i == 0 ? "" : ", ").append(tf("'{1,1,1,1}'", "q.t" + i)).append(" + ")
          .append(tf("'{0,0,0,1}'", "q.t" + i)).append(" AS f").append(i);
      score.append(i == 0 ? "" : " + ").append(idf).append(" * f.f").append(i).append(" * ").append(K1 + 1)
          .append(" / (f.f").append(i).append(" + ").append(K1).append(" * (1 - ").append(B).append(" + ").append(B)
          .append(" * c.tsv_len / $3::float8))");
    }
    return "WITH q AS MATERIALIZED (SELECT " + queries + "),"
        + " hits AS (SELECT c.document_id, c.idx, " + score + " AS score FROM chunks c CROSS JOIN q,"
        + " LATERAL (SELECT c.tsv || ''::tsvector AS v OFFSET 0) d,"
        + " LATERAL (SELECT " + freqs + " OFFSET 0) f WHERE c.tsv @@ q.cand" + where
        + " ORDER BY score DESC, c.document_id, c.idx LIMIT $2)"
        + scoredRows();
  }

  /**
   * A term's frequency in the chunk's vector {@code d.v}, counting the positions whose weight is 1 in
   * {@code weights} (D, C, B, A). {@code d.v} is the chunk's {@code tsv} read (detoasted) once per row, not once
   * per call; {@code OFFSET 0} keeps the planner from folding either lateral step back into the expressions.
   */
  private static String tf(String weights, String tsquery) {
    return "round(1 / (1.6449340668482264 * (1 - ts_rank(" + weights + ", d.v, " + tsquery + ", 0))) - 0.5)";
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
  static java.util.List<Integer> keywordCandidates(double[] df, int budget) {
    java.util.List<Integer> order = new java.util.ArrayList<>();
    for (int i = 0; i < df.length; i++) {
      if (df[i] > 0) {
        order.add(i);
      }
    }
    order.sort(java.util.Comparator.comparingDouble(i -> df[i]));
    java.util.List<Integer> out = new java.util.ArrayList<>();
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

  /**
   * The trigram leg, term at a time: the postings of each kept trigram are looked up in the GIN index and summed
   * per chunk (trigram vectors have no positions, so a trigram counts once), and a chunk must hold at least
   * {@code minShare} of the kept trigrams. Only the {@code kept} rarest trigrams of a long query take part, and
   * of those the rarest whose postings add up to at most {@code postings} ({@code pg.trigramPostings}): the
   * leg's work is bounded however large the table grows.
   */
  static String trigramSql(String where, int kept, double minShare, int postings) {
    return "WITH " + termStats("tgv", TRIGRAM_TERMS, kept, postings)
        + ", p AS (SELECT h.document_id, h.idx, sum(k.idf) AS idf FROM k"
        + " CROSS JOIN LATERAL (SELECT c.document_id, c.idx FROM chunks c WHERE c.tgv @@ k.tq" + where + " OFFSET 0) h"
        + " GROUP BY h.document_id, h.idx HAVING count(*) >= " + minShare + " * (SELECT q.n FROM q))"
        + ", hits AS (SELECT c.document_id, c.idx, p.idf * " + (K1 + 1) + " / (1 + " + K1 + " * (1 - " + B + " + " + B
        + " * c.tgv_len / q.avgdl)) AS score FROM p JOIN chunks c ON c.document_id = p.document_id AND c.idx = p.idx"
        + " CROSS JOIN q ORDER BY score DESC, c.document_id, c.idx LIMIT $2)"
        + scoredRows();
  }

  /**
   * CTEs {@code n} (N and avgdl), {@code k} (the query's terms with document frequency, idf and a one-term
   * tsquery) and {@code q} (their number, the terms and idfs as arrays, avgdl). Unless {@code limit} is
   * unbounded, a query with more than {@code limit} terms keeps the {@code limit} rarest that some chunk holds (a
   * shorter one all of them, so that a chunk must hold a share of all of a short query's terms), and of those the
   * rarest whose postings add up to at most {@code postings} (at least the rarest that some chunk holds).
   */
  private static String termStats(String column, String terms, int limit, int postings) {
    String len = column + "_len";
    String count = "(SELECT count(*) FROM chunks WHERE " + column + " @@ " + tsqueryOf("t.term") + ")";
    return "s AS MATERIALIZED (SELECT st.most_common_elems::text::text[] AS e, st.most_common_elem_freqs AS f"
        + " FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = 'chunks'"
        + " AND st.attname = '" + column + "' AND st.most_common_elems IS NOT NULL),"
        + " l AS MATERIALIZED (" + meanFromStats(len) + "),"
        + " n AS MATERIALIZED (SELECT CASE WHEN EXISTS (SELECT 1 FROM s) THEN greatest((SELECT reltuples FROM pg_class"
        + " WHERE oid = 'chunks'::regclass), 1)::float8 ELSE (SELECT count(*) FROM chunks)::float8 END AS n,"
        + " coalesce((SELECT l.mean FROM l), (SELECT avg(" + len + ") FROM chunks))::float8 AS avgdl),"
        + " t AS MATERIALIZED (SELECT DISTINCT u.term FROM unnest(" + terms + ") AS u(term) WHERE u.term <> ''),"
        + " df AS MATERIALIZED (SELECT t.term, coalesce(n.n * s.f[array_position(s.e, t.term)], " + count + ")::float8 AS df"
        + " FROM t CROSS JOIN n LEFT JOIN s ON true),"
        + " k" + (limit == Integer.MAX_VALUE ? "" : "0") + " AS MATERIALIZED (SELECT df.term, df.df, " + tsqueryOf("df.term") + " AS tq,"
        + " ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) AS idf FROM df CROSS JOIN n"
        + (limit == Integer.MAX_VALUE ? "" : " WHERE df.df > 0 OR (SELECT count(*) FROM df) <= " + limit) + "),"
        + (limit == Integer.MAX_VALUE ? "" : " k AS MATERIALIZED (SELECT * FROM (SELECT k0.*, sum(k0.df) OVER w - k0.df AS before,"
            + " row_number() OVER w AS rank FROM k0 WINDOW w AS (ORDER BY k0.df, k0.term)) r"
            + " WHERE r.rank <= " + limit + " AND (r.before = 0 OR r.before + r.df <= " + postings + ")),")
        + " q AS MATERIALIZED (SELECT count(*) AS n, array_agg(k.term) AS terms, array_agg(k.idf) AS idfs,"
        + " greatest((SELECT avgdl FROM n), 1) AS avgdl FROM k)";
  }

  /**
   * The mean of an integer column from its planner statistics: its most common values weighted by their
   * frequencies, plus the rest of the rows at the mean of the histogram's equal-count buckets' midpoints;
   * no row when the column has no statistics, or rows outside the common values but no histogram (tiny tables).
   */
  private static String meanFromStats(String column) {
    return "SELECT x.mcv + x.rest * coalesce(x.hist, 0) AS mean FROM (SELECT coalesce((SELECT sum(m.v * m.f)"
        + " FROM unnest(st.most_common_vals::text::float8[], st.most_common_freqs) AS m(v, f)), 0) AS mcv,"
        + " 1 - st.null_frac - coalesce((SELECT sum(f) FROM unnest(st.most_common_freqs) AS f), 0) AS rest,"
        + " (SELECT avg((h.b[i] + h.b[i + 1]) / 2) FROM (SELECT st.histogram_bounds::text::float8[] AS b) h,"
        + " generate_series(1, cardinality(h.b) - 1) AS i) AS hist"
        + " FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = 'chunks' AND st.attname = '"
        + column + "') x WHERE x.hist IS NOT NULL OR x.rest < 0.001";
  }

  /** One term as a tsquery of that exact lexeme (quoted: the term's characters are never query syntax). */
  private static String tsqueryOf(String term) {
    return "('''' || replace(replace(" + term + ", '\\', '\\\\'), '''', '''''') || '''')::tsquery";
  }

  /** The scored hits with the columns the store maps, best first. */
  private static String scoredRows() {
    return " SELECT " + PgKnowledgeStore.SCORED_COLUMNS + ", hits.score"
        + " FROM hits JOIN chunks c ON c.document_id = hits.document_id AND c.idx = hits.idx"
        + " ORDER BY hits.score DESC, c.document_id, c.idx";
  }
}
