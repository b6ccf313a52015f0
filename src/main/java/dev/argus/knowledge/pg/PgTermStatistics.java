package dev.argus.knowledge.pg;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The planner's term statistics of the {@code chunks} table as the two text legs need them for BM25 (the number of
 * chunks N, each listed term's frequency, the mean length of a chunk in terms), read once per {@code ANALYZE} and
 * kept in memory.
 *
 * <p>Reading them inside every search cost more than the search itself: the keyword column's statistics list up to
 * 10,000 lexemes, which {@code pg_stats} hands out only as text to be parsed back into an array, 6-7 ms of a
 * backend's CPU per keyword query at 100,000 chunks. Each leg instead asks for its query's terms together with the
 * time of the table's last analysis ({@link PgTextSql#KEYWORD_QUERY_TERMS}, {@link PgTextSql#TRIGRAM_QUERY_TERMS}); the
 * statistics are read again only when that time has changed, whichever node or process ran the {@code ANALYZE}.
 * Concurrent searches that find the same change share one read. Terms the statistics do not list are rarer than
 * those they do, and are still counted exactly on every query (a term new since the last analysis must not be
 * missed), as before.
 */
final class PgTermStatistics {

  /** One text column's statistics: the listed terms' frequencies (share of the rows holding them), and avgdl. */
  record Column(Map<String, Float> frequencies, double avgdl) {

    /** The document frequency of a listed term in a table of {@code n} chunks, or -1 when it is not listed. */
    double listedDf(String term, double n) {
      Float f = frequencies.get(term);
      return f == null ? -1 : n * f;
    }
  }

  /**
   * The statistics as of one analysis ({@code version}: its time as text). A column is null when the planner has
   * no element statistics for it: the legs then count every term exactly, in SQL, as on a fresh table.
   */
  record Snapshot(String version, double n, Column keyword, Column trigram) {
  }

  private final Pool pool;
  private final AtomicReference<Future<Snapshot>> current = new AtomicReference<>();
  private final AtomicInteger reads = new AtomicInteger();

  PgTermStatistics(Pool pool) {
    this.pool = pool;
  }

  /**
   * The statistics of the analysis a leg just saw ({@code version}, null for a table never analysed: no
   * statistics to read). Read from the database only when the version differs from the one held.
   */
  Future<Snapshot> at(String version) {
    if (version == null) {
      return Future.succeededFuture(null);
    }
    Future<Snapshot> held = current.get();
    if (held != null && (!held.isComplete() || held.succeeded() && version.equals(held.result().version()))) {
      return held;
    }
    reads.incrementAndGet();
    Future<Snapshot> loading = pool.preparedQuery(PgTextSql.TERM_STATISTICS).execute().map(rows -> read(rows.iterator().next()));
    if (!current.compareAndSet(held, loading)) {
      Future<Snapshot> other = current.get();
      return other == null ? loading : other;
    }
    loading.onFailure(err -> current.compareAndSet(loading, null));
    return loading;
  }

  /** The statistics held now, or null (for tests and diagnostics). */
  Snapshot held() {
    Future<Snapshot> held = current.get();
    return held != null && held.succeeded() ? held.result() : null;
  }

  /** How many times the statistics were read from the database (for tests and diagnostics). */
  int reads() {
    return reads.get();
  }

  private static Snapshot read(Row row) {
    double n = row.getDouble("n");
    return new Snapshot(Objects.requireNonNullElse(row.getString("version"), ""), n,
        column(row, "tsv", row.getDouble("tsv_avgdl")), column(row, "tgv", row.getDouble("tgv_avgdl")));
  }

  private static Column column(Row row, String name, Double avgdl) {
    String[] elements = row.getArrayOfStrings(name + "_elems");
    Float[] freqs = row.getArrayOfFloats(name + "_freqs");
    if (elements == null || freqs == null) {
      return null;
    }
    Map<String, Float> frequencies = new HashMap<>(elements.length * 2);
    for (int i = 0; i < elements.length && i < freqs.length; i++) {
      frequencies.put(elements[i], freqs[i]);
    }
    return new Column(Map.copyOf(frequencies), avgdl == null ? 1 : Math.max(1, avgdl));
  }
}
