package dev.argus.store;

import io.vertx.core.Vertx;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A data folder written before the graph landed has V1, V2, V4, V5, V7 and V9 applied but not V8 (the graph's
 * number is lower than V9's). Opening it must apply V8 and the later migrations instead of refusing to start
 * ("Detected resolved migration not applied to database: 8" before the fix).
 */
class SqliteUpgradeTest {

  private static final List<String> BEFORE_THE_GRAPH = List.of("V1__knowledge.sql", "V2__runs.sql",
      "V4__ingest_jobs.sql", "V5__session_turns.sql", "V7__records.sql", "V9__text_index_in_process.sql");

  @Test
  void aStoreWithoutTheLowerGraphMigrationIsUpgraded(@TempDir Path dir) throws Exception {
    Path old = Files.createDirectories(dir.resolve("old-migrations"));
    for (String name : BEFORE_THE_GRAPH) {
      try (InputStream in = getClass().getResourceAsStream("/db/migration/sqlite/" + name)) {
        Files.copy(in, old.resolve(name));
      }
    }
    Path file = dir.resolve("argus.db");
    String url = "jdbc:sqlite:" + file.toAbsolutePath();
    Flyway.configure().dataSource(url, null, null).locations("filesystem:" + old).load().migrate();

    Vertx vertx = Vertx.vertx();
    try {
      Database db = await(Database.sqlite(vertx, file));
      long graphTables = await(db.pool().query("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
          + " AND name IN ('graph_nodes', 'graph_edges', 'graph_sources')").execute()).iterator().next().getLong(0);
      assertEquals(3, graphTables, "V8 was applied after V9");
      long applied = await(db.pool().query("SELECT count(*) FROM flyway_schema_history WHERE version = '8'"
          + " AND success = 1").execute()).iterator().next().getLong(0);
      assertEquals(1, applied);
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }
}
