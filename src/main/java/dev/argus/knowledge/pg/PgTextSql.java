package dev.argus.knowledge.pg;

import static dev.argus.knowledge.pg.PgSql.CHUNKS;
import static dev.argus.knowledge.pg.PgSql.SCORED_COLUMNS;
import static dev.argus.knowledge.pg.PgSql.TRIGRAMS;

/**
 * The SQL statements of the PostgreSQL knowledge store's two text legs and of the term statistics they read (the
 * rest is {@link PgSql}'s, whose rules this class keeps: values are {@code $n} bind parameters; what is
 * concatenated is fixed text, numbers from validated configuration, placeholder numbers and {@link PgFilterSql}'s
 * parameterized conditions).
 *
 * <h2>BM25 in SQL (the two text legs)</h2>
 * The keyword leg ranks over {@code chunks.tsv} (English lexemes with positions, title weighted A; two statements) and
 * the trigram leg over {@code chunk_trigrams.tgv} (pg_trgm trigrams of title and text, no positions; one statement),
 * a narrow table of its own whose rows the leg visits per posting ({@code V18__chunk_trigrams.sql}). Query terms are
 * OR-ed (a chunk needs only some of them; the ranking orders them) and scored with Lucene's BM25, {@code k1} 1.2
 * and {@code b} 0.75 as SQLite's FTS5 {@code bm25()}:
 * {@code sum idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))}, {@code idf(t) = ln(1 + (N - df + 0.5)
 * / (df + 0.5))}, {@code dl} the chunk's number of distinct terms.
 *
 * <p>Statistics come from the planner (kept fresh by autovacuum's ANALYZE, by the service's {@code StatisticsVerticle} and by {@code migrate-store}), so
 * ingestion writes nothing extra and concurrent writers share no counter row: the column's most common elements
 * and their frequencies give the document frequency of the listed terms; an unlisted term is rarer than those, so
 * its few chunks are counted exactly through the GIN index (a term no chunk holds, such as a misspelt word's
 * trigram, drops out); the length column's most common values and histogram give {@code avgdl};
 * {@code pg_class.reltuples} gives N. A table without statistics yet (new, or just filled, before autovacuum's
 * ANALYZE) counts all of them exactly. No statistic is ever NULL or below its floor: N is at least 1 once
 * statistics exist (an emptied table keeps them) and the exact count otherwise (0 on an empty table, where every
 * term has df 0 and drops out), and avgdl is at least 1, also when the table has no row to average (a NULL avgdl
 * once failed every keyword search on a fresh store with 500). A term counted exactly can be in more chunks than
 * stale statistics say the table holds (filled after its last ANALYZE); its idf then takes N = df, so that it
 * stays positive instead of lowering the score of every chunk holding it.
 */
final class PgTextSql {

  static final double K1 = 1.2;
  static final double B = 0.75;

  /**
   * The text search configuration of the keyword leg: PostgreSQL's english, with a hyphenated word indexed as its
   * parts only ({@code V19__keyword_hyphenated_parts.sql}).
   */
  static final String KEYWORD_CONFIGURATION = "argus_english";
  /** The terms of a keyword query: its English lexemes, as the tsv column analyses text. */
  static final String KEYWORD_TERMS = "tsvector_to_array(to_tsvector('" + KEYWORD_CONFIGURATION + "', $1::text))";
  /**
   * The terms of a trigram query: pg_trgm's trigrams, as the tgv column holds them, but for those of two padding
   * blanks and one letter ("a word starts with x"), which nearly every chunk holds and which the embedded store's
   * unpadded trigrams do not have either.
   */
  static final String TRIGRAM_TERMS = "ARRAY(SELECT g FROM unnest(show_trgm($1::text)) AS g WHERE g NOT LIKE '  %')";

  // ---------------------------------------------------------------- keyword leg

  /**
   * First step of the keyword leg: the query's analysed terms with document frequency and idf, and avgdl
   * ({@code term, df, idf, avgdl}, rarest first; no row when the query has no term). Placeholder {@code $1}: the query text.
   */
  static String keywordTermsSql() {
    return "WITH " + termStats(CHUNKS, "tsv", KEYWORD_TERMS, Integer.MAX_VALUE, 0)
        + " SELECT k.term, k.df, k.idf, n.avgdl FROM k CROSS JOIN n ORDER BY k.df, k.term";
  }

  /**
   * Second step of the keyword leg, document at a time: the candidate chunks (those holding one of the candidate
   * terms, see {@code PgSearchLegs.keywordCandidates}) are scored on every query term. A term's frequency in a chunk
   * comes from {@code ts_rank} of that one term, which with every weight 1 and no normalization is
   * {@code (1 + 1/4 + ... + 1/tf^2) / (pi^2/6)} (positions in order), so {@code tf = round(1 / (pi^2/6 * (1 - rank))
   * - 1/2)} exactly for the 256 positions a lexeme can hold; with only weight A at 1 the same gives the
   * title's positions (title positions come first), which count twice. This costs far less than unnesting the
   * vector (measured on SciFact, a 13-term query over its 7,873 candidates: about 200 ms with unnest, 94 ms with this).
   *
   * <p>The statement is three plain subqueries, candidates ({@code d}), frequencies ({@code f}) and scores, each
   * kept apart by {@code OFFSET 0} so that the planner does not fold a frequency back into the score formula, where
   * it appears twice. They are not lateral joins: a lateral subquery is started again for every candidate, which
   * cost a quarter to a third of the statement (an 11-term SciFact query over its 426 candidates, in {@code psql}:
   * median 7.7-8.0 against 4.8-6.1 ms; with vectors of up to 10 KB, part of them out of line, 19.6-19.9 against
   * 15.5-16.6 ms). Each {@code ts_rank} call detoasts its vector: one stored in the row uncompressed (the usual
   * case, {@link #KEYWORD_VECTOR}) costs nothing to read again and is passed on as it is; one that is compressed or
   * may be stored out of line is detoasted once per row.
   *
   * <p>Placeholders: {@code $1} the candidate tsquery, {@code $2} avgdl, then per term its one-lexeme tsquery and
   * idf; filter conditions and the limit ({@link PgFilterSql#clauses}) follow.
   *
   * @param terms   the number of query terms
   * @param clauses filter conditions on {@code c} and the limit
   */
  static String keywordSql(int terms, PgFilterSql.Clauses clauses) {
    StringBuilder queries = new StringBuilder("$1::text::tsquery AS cand");
    StringBuilder freqs = new StringBuilder();
    StringBuilder score = new StringBuilder();
    for (int i = 0; i < terms; i++) {
      String tq = "$" + (3 + 2 * i);
      String idf = "$" + (4 + 2 * i) + "::float8";
      queries.append(", ").append(tq).append("::text::tsquery AS t").append(i);
      freqs.append(", ").append(tf("'{1,1,1,1}'", "d.t" + i)).append(" + ")
          .append(tf("'{0,0,0,1}'", "d.t" + i)).append(" AS f").append(i);
      score.append(i == 0 ? "" : " + ").append(idf).append(" * f.f").append(i).append(" * ").append(K1 + 1)
          .append(" / (f.f").append(i).append(" + ").append(K1).append(" * (1 - ").append(B).append(" + ").append(B)
          .append(" * f.tsv_len / $2::float8))");
    }
    return "WITH q AS MATERIALIZED (SELECT " + queries + "),"
        + " hits AS (SELECT f.document_id, f.idx, " + score + " AS score FROM"
        + " (SELECT d.document_id, d.idx, d.tsv_len" + freqs + " FROM"
        + " (SELECT c.document_id, c.idx, c.tsv_len, " + KEYWORD_VECTOR + " AS v, q.* FROM chunks c CROSS JOIN q"
        + " WHERE c.tsv @@ q.cand" + clauses.where() + " OFFSET 0) d OFFSET 0) f"
        + " ORDER BY score DESC, f.document_id, f.idx" + clauses.limit() + ")"
        + scoredRows();
  }

  /**
   * A candidate's lexeme vector as the frequencies read it: {@code tsv} itself when it is stored in the row
   * uncompressed, else a detoasted copy ({@code || ''}), so that the many {@code ts_rank} calls of one row do not
   * each decompress it or fetch it from the TOAST table. {@code tsv} is stored {@code MAIN} (V3): PostgreSQL first
   * moves the row's other long values out, then compresses it if that pays, and moves it out of line only when
   * the row would still not fit in a page (about 8 KB). {@code pg_column_compression} reports the compressed case;
   * the size bound, below what a page holds, catches the out-of-line one, which it does not report when the value
   * is not compressed.
   */
  static final String KEYWORD_VECTOR = "CASE WHEN pg_column_compression(c.tsv) IS NULL"
      + " AND pg_column_size(c.tsv) < 7000 THEN c.tsv ELSE c.tsv || ''::tsvector END";

  /**
   * A term's frequency in the chunk's vector {@code d.v} ({@link #KEYWORD_VECTOR}), counting the positions whose
   * weight is 1 in {@code weights} (D, C, B, A).
   */
  private static String tf(String weights, String tsquery) {
    return "round(1 / (1.6449340668482264 * (1 - ts_rank(" + weights + ", d.v, " + tsquery + ", 0))) - 0.5)";
  }

  // ---------------------------------------------------------------- term statistics held in memory

  /**
   * When the chunks table and the trigram table were last analysed (by hand or by autovacuum), as text: it changes
   * whenever either table's statistics do; NULL if the chunks table never was.
   */
  private static final String ANALYSED =
      "(" + analysed(CHUNKS) + " || '/' || coalesce(" + analysed(TRIGRAMS) + ", ''))";

  /**
   * {@code ANALYZE} of the knowledge tables after a bulk load: the documents, and the two tables whose statistics
   * the legs read (the planner's estimates of an empty table keep it off the HNSW index).
   */
  static final String ANALYZE_KNOWLEDGE_TABLES = "ANALYZE documents, " + CHUNKS + ", " + TRIGRAMS;

  private static String analysed(String table) {
    return "greatest(pg_stat_get_last_analyze_time('" + table + "'::regclass),"
        + " pg_stat_get_last_autoanalyze_time('" + table + "'::regclass))::text";
  }

  /** A keyword query's distinct terms ({@code terms}) and the table's last analysis ({@code version}). */
  static final String KEYWORD_QUERY_TERMS = queryTerms(KEYWORD_TERMS);
  /** A trigram query's distinct trigrams ({@code terms}) and the table's last analysis ({@code version}). */
  static final String TRIGRAM_QUERY_TERMS = queryTerms(TRIGRAM_TERMS);

  private static String queryTerms(String terms) {
    return "SELECT ARRAY(SELECT DISTINCT u.term FROM unnest(" + terms + ") AS u(term) WHERE u.term <> '') AS terms, "
        + ANALYSED + " AS version";
  }

  /**
   * The statistics {@code PgTermStatistics} keeps: {@code version} (as {@link #KEYWORD_QUERY_TERMS} gives it),
   * {@code n}, and per text column its listed terms and their frequencies ({@code tsv_elems}, {@code tsv_freqs},
   * NULL without element statistics) and avgdl ({@code tsv_avgdl}); the same for {@code tgv}. The same
   * expressions as the statements that read them per query ({@link #termStats}).
   */
  static final String TERM_STATISTICS = "SELECT " + ANALYSED + " AS version,"
      + " greatest((SELECT reltuples FROM pg_class WHERE oid = '" + CHUNKS + "'::regclass), 1)::float8 AS n, "
      + columnStatistics(CHUNKS, "tsv") + ", " + columnStatistics(TRIGRAMS, "tgv");

  private static String columnStatistics(String table, String column) {
    String stats = " FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = '" + table + "'"
        + " AND st.attname = '" + column + "'";
    String len = column + "_len";
    return "(SELECT st.most_common_elems::text::text[]" + stats + ") AS " + column + "_elems,"
        + " (SELECT st.most_common_elem_freqs" + stats + ") AS " + column + "_freqs,"
        + " greatest(coalesce((" + meanFromStats(table, len) + "), (SELECT avg(" + len + ") FROM " + table + "), 1),"
        + " 1)::float8 AS " + column + "_avgdl";
  }

  /** The exact document frequency ({@code term, df}) in {@code tsv} of each term in $1 (text[]). */
  static final String KEYWORD_EXACT_DF = exactDf(CHUNKS, "tsv");
  /** The exact document frequency ({@code term, df}) in {@code tgv} of each trigram in $1 (text[]). */
  static final String TRIGRAM_EXACT_DF = exactDf(TRIGRAMS, "tgv");

  private static String exactDf(String table, String column) {
    return "SELECT u.term, (SELECT count(*) FROM " + table + " WHERE " + column + " @@ " + tsqueryOf("u.term")
        + ")::float8 AS df FROM unnest($1::text[]) AS u(term)";
  }

  // ---------------------------------------------------------------- trigram leg

  /**
   * The trigram leg when its trigrams are chosen and weighed already (from the statistics held in memory): as
   * {@link #trigramSql}, with the kept trigrams' postings summed per chunk and each chunk's length read in the
   * same visit of its row. Placeholders: {@code $1} the kept trigrams as tsquery text (text[]), {@code $2} their
   * idfs (float8[]), {@code $3} the number of trigrams kept (of which a chunk must hold {@code minShare}),
   * {@code $4} avgdl; filter conditions on alias {@code c} and the limit ({@link PgFilterSql#clauses}) follow.
   */
  static String trigramScoredSql(PgFilterSql.Clauses clauses, double minShare) {
    return "WITH k AS MATERIALIZED (SELECT u.tq::tsquery AS tq, u.idf FROM unnest($1::text[], $2::float8[]) AS u(tq, idf)),"
        + " p AS (SELECT h.document_id, h.idx, max(h.tgv_len) AS len, sum(k.idf) AS idf FROM k"
        + " CROSS JOIN LATERAL (" + trigramPostings(clauses.where()) + ") h"
        + " GROUP BY h.document_id, h.idx HAVING count(*) >= " + minShare + " * $3::int)"
        + ", hits AS (SELECT p.document_id, p.idx, p.idf * " + (K1 + 1) + " / (1 + " + K1 + " * (1 - " + B + " + " + B
        + " * p.len / $4::float8)) AS score FROM p ORDER BY score DESC, p.document_id, p.idx" + clauses.limit() + ")"
        + scoredRows();
  }


  /**
   * The trigram leg, term at a time: the postings of each kept trigram are looked up in the GIN index and summed
   * per chunk (trigram vectors have no positions, so a trigram counts once; the chunk's length is read in the same
   * visit of its row, not by a second look-up of every candidate), and a chunk must hold at least
   * {@code minShare} of the kept trigrams. Only the {@code kept} rarest trigrams of a long query take part, and
   * of those the rarest whose postings add up to at most {@code postings} ({@code pg.trigramPostings}): the
   * leg's work is bounded however large the table grows. Placeholders: {@code $1} the query text; filter
   * conditions on alias {@code c} and the limit ({@link PgFilterSql#clauses}) follow.
   */
  static String trigramSql(PgFilterSql.Clauses clauses, int kept, double minShare, int postings) {
    return "WITH " + termStats(TRIGRAMS, "tgv", TRIGRAM_TERMS, kept, postings)
        + ", p AS (SELECT h.document_id, h.idx, max(h.tgv_len) AS len, sum(k.idf) AS idf FROM k"
        + " CROSS JOIN LATERAL (" + trigramPostings(clauses.where()) + ") h"
        + " GROUP BY h.document_id, h.idx HAVING count(*) >= " + minShare + " * (SELECT q.n FROM q))"
        + ", hits AS (SELECT p.document_id, p.idx, p.idf * " + (K1 + 1) + " / (1 + " + K1 + " * (1 - " + B + " + " + B
        + " * p.len / q.avgdl)) AS score FROM p CROSS JOIN q ORDER BY score DESC, p.document_id, p.idx"
        + clauses.limit() + ")"
        + scoredRows();
  }

  /**
   * The chunks holding trigram {@code k.tq}, with their length: from the narrow trigram table alone, or joined to
   * {@code chunks} (alias {@code c}) when there are filter conditions to test. {@code OFFSET 0} keeps each
   * trigram's look-up a scan of its own.
   */
  private static String trigramPostings(String where) {
    return "SELECT t.document_id, t.idx, t.tgv_len FROM " + TRIGRAMS + " t"
        + (where.isEmpty() ? "" : " JOIN " + CHUNKS + " c ON c.document_id = t.document_id AND c.idx = t.idx")
        + " WHERE t.tgv @@ k.tq" + where + " OFFSET 0";
  }

  // ---------------------------------------------------------------- term statistics

  /**
   * CTEs {@code n} (N and avgdl, never NULL), {@code k} (the query's terms with document frequency, idf and a
   * one-term tsquery) and {@code q} (their number, the terms and idfs as arrays, avgdl). Unless {@code limit} is
   * unbounded, a query with more than {@code limit} terms keeps the {@code limit} rarest that some chunk holds (a
   * shorter one all of them, so that a chunk must hold a share of all of a short query's terms), and of those the
   * rarest whose postings add up to at most {@code postings} (at least the rarest that some chunk holds).
   */
  private static String termStats(String table, String column, String terms, int limit, int postings) {
    String len = column + "_len";
    String count = "(SELECT count(*) FROM " + table + " WHERE " + column + " @@ " + tsqueryOf("t.term") + ")";
    boolean bounded = limit != Integer.MAX_VALUE;
    return "s AS MATERIALIZED (SELECT st.most_common_elems::text::text[] AS e, st.most_common_elem_freqs AS f"
        + " FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = '" + table + "'"
        + " AND st.attname = '" + column + "' AND st.most_common_elems IS NOT NULL),"
        + " l AS MATERIALIZED (" + meanFromStats(table, len) + "),"
        + " n AS MATERIALIZED (SELECT CASE WHEN EXISTS (SELECT 1 FROM s) THEN greatest((SELECT reltuples FROM pg_class"
        + " WHERE oid = '" + table + "'::regclass), 1)::float8"
        + " ELSE (SELECT count(*) FROM " + table + ")::float8 END AS n,"
        + " greatest(coalesce((SELECT l.mean FROM l), (SELECT avg(" + len + ") FROM " + table + "), 1), 1)::float8"
        + " AS avgdl),"
        + " t AS MATERIALIZED (SELECT DISTINCT u.term FROM unnest(" + terms + ") AS u(term) WHERE u.term <> ''),"
        + " df AS MATERIALIZED (SELECT t.term, coalesce(n.n * s.f[array_position(s.e, t.term)], " + count + ")::float8 AS df"
        + " FROM t CROSS JOIN n LEFT JOIN s ON true),"
        + " k" + (bounded ? "0" : "") + " AS MATERIALIZED (SELECT df.term, df.df, " + tsqueryOf("df.term") + " AS tq,"
        + " ln(1 + (greatest(n.n, df.df) - df.df + 0.5) / (df.df + 0.5)) AS idf FROM df CROSS JOIN n"
        + (bounded ? " WHERE df.df > 0 OR (SELECT count(*) FROM df) <= " + limit : "") + "),"
        + (bounded ? " k AS MATERIALIZED (SELECT * FROM (SELECT k0.*, sum(k0.df) OVER w - k0.df AS before,"
            + " row_number() OVER w AS rank FROM k0 WINDOW w AS (ORDER BY k0.df, k0.term)) r"
            + " WHERE r.rank <= " + limit + " AND (r.before = 0 OR r.before + r.df <= " + postings + "))," : "")
        + " q AS MATERIALIZED (SELECT count(*) AS n, array_agg(k.term) AS terms, array_agg(k.idf) AS idfs,"
        + " (SELECT avgdl FROM n) AS avgdl FROM k)";
  }

  /**
   * The mean of an integer column from its planner statistics: its most common values weighted by their
   * frequencies, plus the rest of the rows at the mean of the histogram's equal-count buckets' midpoints;
   * no row when the column has no statistics, or rows outside the common values but no histogram (tiny tables).
   */
  private static String meanFromStats(String table, String column) {
    return "SELECT x.mcv + x.rest * coalesce(x.hist, 0) AS mean FROM (SELECT coalesce((SELECT sum(m.v * m.f)"
        + " FROM unnest(st.most_common_vals::text::float8[], st.most_common_freqs) AS m(v, f)), 0) AS mcv,"
        + " 1 - st.null_frac - coalesce((SELECT sum(f) FROM unnest(st.most_common_freqs) AS f), 0) AS rest,"
        + " (SELECT avg((h.b[i] + h.b[i + 1]) / 2) FROM (SELECT st.histogram_bounds::text::float8[] AS b) h,"
        + " generate_series(1, cardinality(h.b) - 1) AS i) AS hist"
        + " FROM pg_stats st WHERE st.schemaname = current_schema() AND st.tablename = '" + table + "'"
        + " AND st.attname = '" + column + "') x WHERE x.hist IS NOT NULL OR x.rest < 0.001";
  }

  /** One term as a tsquery of that exact lexeme (quoted: the term's characters are never query syntax). */
  private static String tsqueryOf(String term) {
    return "('''' || replace(replace(" + term + ", '\\', '\\\\'), '''', '''''') || '''')::tsquery";
  }

  /** The scored hits with the columns the store maps, best first. */
  private static String scoredRows() {
    return " SELECT " + SCORED_COLUMNS + ", hits.score"
        + " FROM hits JOIN chunks c ON c.document_id = hits.document_id AND c.idx = hits.idx"
        + " ORDER BY hits.score DESC, c.document_id, c.idx";
  }

  private PgTextSql() {
  }
}
