package dev.argus.knowledge.pg;

import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A text query's distinct terms with their document frequency and BM25 idf, rarest first (ties by the term, as the
 * database's C collation orders them), and the column's avgdl: what both text legs score with. Built from the
 * statistics held in memory ({@link #of}) or read from the rows of {@link PgTextSql#keywordTermsSql()} on a table
 * without them ({@link #fromRows}); both give the same values.
 */
record PgQueryTerms(List<String> terms, double[] df, double[] idf, double avgdl) {

  private static final Comparator<Map.Entry<String, Double>> RAREST_FIRST =
      Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey());

  static PgQueryTerms of(Map<String, Double> df, double n, double avgdl) {
    List<Map.Entry<String, Double>> sorted = new ArrayList<>(df.entrySet());
    sorted.sort(RAREST_FIRST);
    List<String> terms = new ArrayList<>(sorted.size());
    double[] dfs = new double[sorted.size()];
    double[] idfs = new double[sorted.size()];
    for (int i = 0; i < sorted.size(); i++) {
      terms.add(sorted.get(i).getKey());
      dfs[i] = sorted.get(i).getValue();
      idfs[i] = idf(n, dfs[i]);
    }
    return new PgQueryTerms(List.copyOf(terms), dfs, idfs, avgdl);
  }

  /** The rows {@code term, df, idf, avgdl} of {@link PgTextSql#keywordTermsSql()}, rarest first. */
  static PgQueryTerms fromRows(RowSet<Row> rows) {
    List<String> terms = new ArrayList<>(rows.size());
    double[] df = new double[rows.size()];
    double[] idf = new double[rows.size()];
    double avgdl = 1;
    int i = 0;
    for (Row r : rows) {
      Double mean = r.getDouble("avgdl"); // never NULL (PgSql), but a NULL must not become a 500
      avgdl = mean == null ? 1 : Math.max(1, mean);
      terms.add(r.getString("term"));
      df[i] = r.getDouble("df");
      idf[i] = r.getDouble("idf");
      i++;
    }
    return new PgQueryTerms(List.copyOf(terms), df, idf, avgdl);
  }

  /**
   * BM25's idf, {@code ln(1 + (N - df + 0.5) / (df + 0.5))}, with N at least df: a term counted exactly can be in
   * more chunks than statistics older than its rows say the table holds, and must not get a negative weight.
   */
  static double idf(double n, double df) {
    return Math.log(1 + (Math.max(n, df) - df + 0.5) / (df + 0.5));
  }

  int size() {
    return terms.size();
  }

  /**
   * The trigram leg's choice (as {@link PgTextSql#trigramSql} makes it in SQL): a query with more than {@code limit}
   * trigrams keeps those some chunk holds, then at most the {@code limit} rarest; of those, the rarest whose
   * postings add up to at most {@code postings} (at least the rarest that some chunk holds, and every trigram no
   * chunk holds: those count in the share a chunk must reach and match nothing). Indexes into {@link #terms()}.
   */
  List<Integer> trigramsKept(int limit, double postings) {
    boolean dropUnheld = terms.size() > limit;
    List<Integer> kept = new ArrayList<>();
    double before = 0;
    for (int i = 0; i < terms.size() && kept.size() < limit; i++) {
      if (dropUnheld && df[i] <= 0) {
        continue;
      }
      if (before != 0 && before + df[i] > postings) {
        break;
      }
      kept.add(i);
      before += df[i];
    }
    return kept;
  }
}
