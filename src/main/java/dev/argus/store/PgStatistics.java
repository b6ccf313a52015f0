package dev.argus.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Keeps PostgreSQL's planner statistics fresh for Argus's own tables, whatever the server's autovacuum does (it may be
 * off, as on the development machine, or lag behind a bulk load). Without statistics the planner guesses: on the
 * 1,000,000-transaction world a seller's refunds were read through the kind index (604 ms) instead of the reference
 * index (1.2 ms), and decisions were 4 × slower. A table is stale by autovacuum's own rule — more rows changed since
 * its last analysis than {@value PlannerStatistics#BASE_THRESHOLD} plus {@value PlannerStatistics#SCALE_FACTOR} of its rows — or when it holds rows and
 * was never analysed. Each stale table gets an {@code ANALYZE} (sampled: about a second on a 1.3 M-row table).
 */
public final class PgStatistics {

  /** Names come from the catalog, never from input; still only plain identifiers are ever spliced into SQL. */
  private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private PgStatistics() {
  }

  /** The tables of the current schema whose statistics are stale (see the class comment), most changed first. */
  public static Future<List<String>> stale(Pool pool) {
    // the rule's two constants typed in the text: as parameters PostgreSQL would infer $2 * bigint as bigint (0.1 → 0)
    return pool.query("SELECT relname FROM pg_stat_user_tables WHERE schemaname = current_schema() AND ("
            + "n_mod_since_analyze > " + PlannerStatistics.BASE_THRESHOLD + " + " + PlannerStatistics.SCALE_FACTOR
            + "::float8 * n_live_tup OR ("
            + "last_analyze IS NULL AND last_autoanalyze IS NULL AND n_live_tup > 0)) ORDER BY n_mod_since_analyze DESC")
        .execute().map(rows -> {
          List<String> out = new ArrayList<>();
          for (Row row : rows) {
            String name = row.getString("relname");
            if (PLAIN.matcher(name).matches()) {
              out.add(name);
            }
          }
          return out;
        });
  }

  /** Analyses every stale table, one after the other; the names of those analysed. */
  public static Future<List<String>> refreshStale(Pool pool) {
    return stale(pool).compose(tables -> PlannerStatistics.analyse(pool, tables));
  }
}
