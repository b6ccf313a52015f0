package dev.argus.store;

import dev.argus.testing.BlockedThreadGuard;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Planner statistics of a real SQLite file: a table is stale when its row count moved more than 50 + 10 % from the
 * count its last ANALYZE saw, or it has rows and was never analysed; {@code refreshStale} analyses exactly those.
 */
@ExtendWith(BlockedThreadGuard.class)
class SqliteStatisticsTest {

  @Test
  void staleByRowCountThenFreshAfterRefresh() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, TestApp.tempDataDir().resolve("stats.db")));
      var pool = db.pool();
      await(pool.query("CREATE TABLE t_stats (x INTEGER)").execute());
      await(pool.query("CREATE INDEX t_stats_x ON t_stats (x)").execute());
      await(pool.query("CREATE VIRTUAL TABLE t_text USING fts5(body)").execute());
      await(pool.query("INSERT INTO t_text (body) VALUES ('a'), ('b')").execute());
      insert(db, 5000);
      List<String> stale = await(SqliteStatistics.stale(pool));
      assertTrue(stale.contains("t_stats"), "5,000 rows, never analysed");
      assertTrue(stale.stream().noneMatch(t -> t.startsWith("t_text")), "no statistics for a full-text index: " + stale);

      List<String> analysed = await(SqliteStatistics.refreshStale(pool));
      assertTrue(analysed.contains("t_stats"), analysed.toString());
      assertFalse(await(SqliteStatistics.stale(pool)).contains("t_stats"), "just analysed");

      // threshold 50 + 0.1 × 5,000 = 550 rows: 500 more are not enough, 100 after them are
      insert(db, 500);
      assertFalse(await(SqliteStatistics.stale(pool)).contains("t_stats"), "500 <= 550");
      insert(db, 100);
      assertTrue(await(SqliteStatistics.stale(pool)).contains("t_stats"), "600 > 550");
      assertTrue(await(SqliteStatistics.refreshStale(pool)).contains("t_stats"));
      assertFalse(await(SqliteStatistics.stale(pool)).contains("t_stats"));
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }

  private static void insert(Database db, int n) {
    await(db.pool().query("WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < " + n
        + ") INSERT INTO t_stats SELECT i FROM s").execute());
  }
}
