package dev.argus.store;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.testing.BlockedThreadGuard;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.function.BooleanSupplier;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Planner statistics on the real local PostgreSQL: a table is stale by autovacuum's rule (more than 50 + 10 % of its
 * rows changed since its last analysis, or rows and never analysed), {@code refreshStale} analyses exactly those, and
 * the service's periodic check does it on its own. Rows are written over JDBC connections that close, so the server
 * has counted them before the check reads its statistics views.
 */
@ExtendWith(BlockedThreadGuard.class)
class PgStatisticsTest {

  private static PgTestDatabase pg;
  private static Vertx vertx;
  private static Database db;

  @BeforeAll
  static void setUp() {
    pg = PgTestDatabase.create();
    vertx = Vertx.vertx();
    db = await(Database.postgres(vertx, pg.conf()));
  }

  @AfterAll
  static void tearDown() {
    await(db.close());
    await(vertx.close());
    pg.close();
  }

  @Test
  void staleByAutovacuumRuleThenFreshAfterRefresh() {
    pg.execute("CREATE TABLE t_stats (x int)");
    pg.execute("INSERT INTO t_stats SELECT generate_series(1, 5000)");
    waitFor(() -> await(PgStatistics.stale(db.pool())).contains("t_stats"), "never analysed, 5,000 rows: stale");

    List<String> analysed = await(PgStatistics.refreshStale(db.pool()));
    assertTrue(analysed.contains("t_stats"), analysed.toString());
    assertTrue(analysed.contains("flyway_schema_history"), "the migrations' own table had rows: " + analysed);
    waitFor(() -> lastAnalyzeSet("t_stats"), "ANALYZE recorded");
    assertFalse(await(PgStatistics.stale(db.pool())).contains("t_stats"), "just analysed");

    // threshold 50 + 0.1 × 5,000 = 550 changed rows: 500 more are not enough, 100 after them are
    pg.execute("INSERT INTO t_stats SELECT generate_series(1, 500)");
    waitFor(() -> modsSinceAnalyze("t_stats") == 500, "500 changes counted");
    assertFalse(await(PgStatistics.stale(db.pool())).contains("t_stats"), () -> "500 <= 550: " + statsRow("t_stats"));
    pg.execute("UPDATE t_stats SET x = x + 1 WHERE x <= 100");
    waitFor(() -> modsSinceAnalyze("t_stats") >= 700, "updates counted");
    assertTrue(await(PgStatistics.stale(db.pool())).contains("t_stats"), "more than 550 changes: stale again");
    assertTrue(await(PgStatistics.refreshStale(db.pool())).contains("t_stats"));
    waitFor(() -> modsSinceAnalyze("t_stats") == 0, "analysed again");
    assertEquals(List.of(), await(PgStatistics.refreshStale(db.pool())).stream().filter("t_stats"::equals).toList());
  }

  @Test
  void theServiceCheckAnalysesATableLoadedWhileItRuns() {
    String id = await(vertx.deployVerticle(new StatisticsVerticle(db, 200)));
    try {
      pg.execute("CREATE TABLE t_loaded (x int)");
      pg.execute("INSERT INTO t_loaded SELECT generate_series(1, 3000)");
      waitFor(() -> lastAnalyzeSet("t_loaded"), "the periodic check analysed the loaded table");
    } finally {
      await(vertx.undeploy(id));
    }
  }

  @Test
  void aCheckCutShortByTheShutdownEndsQuietly() {
    StatisticsVerticle verticle = new StatisticsVerticle(db, 60_000);
    String id = await(vertx.deployVerticle(verticle));
    await(vertx.undeploy(id));
    // what a check still running at the shutdown gets when the pool closes under it: no result, no failure logged
    // (this threw a NullPointerException on the event loop, reading the result of the failed check)
    assertDoesNotThrow(() -> verticle.finished(io.vertx.core.Future.failedFuture("pool closed"), System.nanoTime()));
    assertDoesNotThrow(() -> verticle.finished(io.vertx.core.Future.succeededFuture(List.of()), System.nanoTime()));
  }

  private static String statsRow(String table) {
    return await(db.pool().query("SELECT n_live_tup, n_mod_since_analyze, last_analyze FROM pg_stat_user_tables "
        + "WHERE relname = '" + table + "'").execute()).iterator().next().toJson().encode();
  }

  private static boolean lastAnalyzeSet(String table) {
    return query("SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = '" + table + "'") == 1;
  }

  private static long modsSinceAnalyze(String table) {
    return query("SELECT n_mod_since_analyze FROM pg_stat_user_tables WHERE relname = '" + table + "'");
  }

  /** One number (a boolean as 0/1) over a fresh connection: a new backend sees the latest flushed counts. */
  private static long query(String sql) {
    try (Connection c = PgTestDatabase.connect(pg.conf()); Statement st = c.createStatement();
         ResultSet rs = st.executeQuery(sql)) {
      if (!rs.next()) {
        return -1;
      }
      Object v = rs.getObject(1);
      return v instanceof Boolean b ? (b ? 1 : 0) : ((Number) v).longValue();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void waitFor(BooleanSupplier condition, String what) {
    long deadline = System.currentTimeMillis() + 20_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out: " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
