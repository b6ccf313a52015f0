package dev.argus.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Planner statistics for the embedded SQLite store ({@code sqlite_stat1}), by the rule {@link PgStatistics} uses:
 * a table is stale when its row count differs from the count its last {@code ANALYZE} saw by more than 50 + 10 %, or
 * it holds rows and was never analysed. SQLite keeps no change counter, so each check counts the rows (an index
 * scan: about 0.1 s for the 5.5 M provenance rows of the 1,000,000-transaction world). Without statistics SQLite
 * read a seller's refunds through the kind index there too, and a transaction decision took 1.2 s.
 */
public final class SqliteStatistics {

  private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private SqliteStatistics() {
  }

  /** The stale tables (see the class comment). */
  public static Future<List<String>> stale(Pool pool) {
    return pool.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'").execute().compose(rows -> {
      // a virtual table (full-text index) has no statistics to gather, nor have its shadow tables any use for them
      List<String> virtual = new ArrayList<>();
      List<String> tables = new ArrayList<>();
      boolean statsExist = false;
      for (Row r : rows) {
        String name = r.getString("name");
        String sql = r.getString("sql");
        if (sql != null && sql.regionMatches(true, 0, "CREATE VIRTUAL TABLE", 0, 20)) {
          virtual.add(name + "_");
        } else if (name.equals("sqlite_stat1")) {
          statsExist = true;
        } else if (!name.startsWith("sqlite_") && PLAIN.matcher(name).matches()) {
          tables.add(name);
        }
      }
      tables.removeIf(t -> virtual.stream().anyMatch(t::startsWith));
      return (statsExist ? analysedCounts(pool) : Future.succeededFuture(Map.<String, Long>of()))
          .compose(analysed -> staleAmong(pool, tables, analysed));
    });
  }

  /** Those of {@code tables} whose row count moved past the threshold from the analysed one, counted in turn. */
  private static Future<List<String>> staleAmong(Pool pool, List<String> tables, Map<String, Long> analysed) {
    List<String> stale = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (String table : tables) {
      chain = chain.compose(v -> pool.query("SELECT COUNT(*) AS n FROM \"" + table + "\"").execute().map(rows -> {
        long now = rows.iterator().next().getLong("n");
        Long then = analysed.get(table);
        if (then == null ? now > 0
            : Math.abs(now - then) > PlannerStatistics.BASE_THRESHOLD + PlannerStatistics.SCALE_FACTOR * then) {
          stale.add(table);
        }
        return null;
      }));
    }
    return chain.map(v -> stale);
  }

  /** Analyses every stale table, one after the other; the names of those analysed. */
  public static Future<List<String>> refreshStale(Pool pool) {
    return stale(pool).compose(tables -> PlannerStatistics.analyse(pool, tables));
  }

  /** Row counts as of each table's last analysis (the first number of its statistics). */
  private static Future<Map<String, Long>> analysedCounts(Pool pool) {
    return pool.query("SELECT tbl, stat FROM sqlite_stat1").execute().map(rows -> {
      Map<String, Long> out = new HashMap<>();
      for (Row r : rows) {
        String stat = r.getString("stat");
        if (stat != null && !stat.isBlank()) {
          out.merge(r.getString("tbl"), Long.parseLong(stat.split(" ")[0]), Math::max);
        }
      }
      return out;
    });
  }
}
