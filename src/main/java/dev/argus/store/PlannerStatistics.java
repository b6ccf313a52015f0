package dev.argus.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;

import java.util.List;

/**
 * Keeps the planner statistics of Argus's tables fresh on either store: {@link PgStatistics} or
 * {@link SqliteStatistics} finds the stale tables (one rule: more than {@value #BASE_THRESHOLD} plus
 * {@value #SCALE_FACTOR} of a table's rows changed since its last analysis, or rows and never analysed), and each is
 * given an {@code ANALYZE}, one after the other.
 */
public final class PlannerStatistics {

  static final int BASE_THRESHOLD = 50;
  static final double SCALE_FACTOR = 0.1;

  private PlannerStatistics() {
  }

  /** Refreshes the stale tables of {@code db}; the names of those analysed. */
  public static Future<List<String>> refreshStale(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? PgStatistics.refreshStale(db.pool())
        : SqliteStatistics.refreshStale(db.pool());
  }

  /** {@code ANALYZE} of each of {@code tables} (plain identifiers from the catalog), in turn; the tables. */
  static Future<List<String>> analyse(Pool pool, List<String> tables) {
    Future<Void> chain = Future.succeededFuture();
    for (String table : tables) {
      chain = chain.compose(v -> pool.query("ANALYZE \"" + table + "\"").execute().mapEmpty());
    }
    return chain.map(v -> tables);
  }
}
