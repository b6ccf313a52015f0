package dev.argus.knowledge.pg;

import dev.argus.cli.Main;
import dev.argus.cli.MigrateStoreCommand;
import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.sqlite.SqliteKnowledgeStore;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code argus migrate-store --from <sqlite> --to postgres} on a small real SQLite store into a fresh PostgreSQL database. */
class PgMigrateStoreTest {

  @TempDir
  Path dir;

  private Vertx vertx;
  private PgTestDatabase pg;
  private Database sqliteDb;
  private KnowledgeStore sqlite;
  private Path file;

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    file = dir.resolve("argus.db");
    sqliteDb = await(Database.sqlite(vertx, file));
    sqlite = await(SqliteKnowledgeStore.open(sqliteDb));
    await(sqlite.checkEmbeddingModel("mini-model", 4));
    Random rnd = new Random(3);
    for (int d = 0; d < 25; d++) {
      String id = "doc-" + d;
      int n = 1 + d % 4;
      List<Chunk> chunks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        chunks.add(new Chunk(id, i, n, "Chunk " + i + " of " + id + " about " + (d % 2 == 0 ? "refund abuse" : "mule accounts"),
            PgStoreBehaviourTest.unit(new float[] {rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat()})));
      }
      JsonObject meta = new JsonObject().put("year", 2000 + d).put("tags", new JsonArray().add("t" + d % 3));
      await(sqlite.upsert(new Document(id, d < 20 ? "default" : "cases", "Title " + d, "src://" + d, "Text of " + id, meta,
          null, 0, null, null), chunks));
    }
    sqlite("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, profile TEXT NOT NULL, status TEXT NOT NULL,"
        + " next_phase TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, body TEXT NOT NULL)");
    sqlite("INSERT INTO runs (run_id, profile, status, next_phase, created_at, updated_at, body) VALUES"
        + " ('r1', 'risk', 'completed', NULL, 1, 2, '{\"a\": 1}'), ('r2', 'risk', 'running', 'act', 3, 4, '{\"b\": [1, 2]}')");
    sqlite("CREATE TABLE IF NOT EXISTS run_events (run_id TEXT NOT NULL, event_id INTEGER NOT NULL, type TEXT NOT NULL,"
        + " data TEXT NOT NULL, created_at INTEGER NOT NULL, PRIMARY KEY (run_id, event_id))");
    sqlite("INSERT INTO run_events (run_id, event_id, type, data, created_at) VALUES ('r1', 1, 'phase', '{\"p\": \"plan\"}', 1),"
        + " ('r1', 2, 'final', '{}', 2)");
    await(Database.postgres(vertx, pg.conf()).compose(db -> db.close())); // migrated first; the runs table is added after
    pg.execute("CREATE TABLE IF NOT EXISTS run_events (run_id TEXT NOT NULL, event_id BIGINT NOT NULL, type TEXT NOT NULL,"
        + " data JSONB NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (run_id, event_id))");
    pg.execute("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, profile TEXT NOT NULL, status TEXT NOT NULL,"
        + " next_phase TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, body JSONB NOT NULL)");
  }

  @AfterEach
  void close() {
    await(sqliteDb.close());
    await(vertx.close());
    pg.close();
  }

  /** Writes rows of the run store's table straight into the SQLite file (test set-up only). */
  private void sqlite(String sql) {
    try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file); var st = c.createStatement()) {
      st.execute(sql);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private ArgusConfig conf() {
    return TestApp.config(dir).with("pg", "database", pg.conf().database());
  }

  @Test
  void copiesEverythingWithoutReEmbeddingResumesAndVerifies() {
    var report = await(MigrateStoreCommand.migrate(vertx, file, conf(), 7));
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(25, report.documents());
    assertEquals(6 * (1 + 2 + 3 + 4) + 1, report.chunks()); // docs 0-23: six rounds of 1..4 chunks; doc-24: 1
    assertEquals(25, report.copied());
    assertEquals(0, report.skipped());
    assertEquals(2L, report.tables().get("runs")[1]);
    assertEquals(2L, report.tables().get("run_events")[1]);

    Database pgDb = await(Database.postgres(vertx, pg.conf()));
    try {
      PgKnowledgeStore target = new PgKnowledgeStore(pgDb, pg.conf());
      var stats = await(target.stats());
      assertEquals(25, stats.documents());
      assertEquals(61, stats.chunks());
      assertEquals("mini-model", stats.embeddingModel());
      assertEquals(4, stats.dimension());
      await(target.checkEmbeddingModel("mini-model", 4)); // the service starts on the copied store
      Document before = await(sqlite.document("doc-7")).orElseThrow();
      Document after = await(target.document("doc-7")).orElseThrow();
      assertEquals(before.contentHash(), after.contentHash());
      assertEquals(before.text(), after.text());
      assertEquals(before.metadata(), after.metadata());
      assertEquals(before.createdAt(), after.createdAt());
      assertEquals(before.updatedAt(), after.updatedAt());
      // Same vectors: the vector leg ranks identically with identical scores.
      Random rnd = new Random(9);
      for (int t = 0; t < 5; t++) {
        float[] q = PgStoreBehaviourTest.unit(new float[] {rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat()});
        List<ScoredChunk> a = await(sqlite.vectorSearch(q, 8, SearchFilter.NONE));
        List<ScoredChunk> b = await(target.vectorSearch(q, 8, SearchFilter.NONE));
        assertEquals(a.stream().map(ScoredChunk::key).toList(), b.stream().map(ScoredChunk::key).toList());
        for (int i = 0; i < a.size(); i++) {
          assertEquals(a.get(i).score(), b.get(i).score(), 1e-5);
        }
      }
      assertEquals(List.of("doc-20", "doc-21", "doc-22", "doc-23", "doc-24"),
          await(target.list("cases", 0, 10)).documents().stream().map(Document::id).sorted().toList());
      assertEquals("{\"b\":[1,2]}", await(pgDb.pool().query("SELECT body::text FROM runs WHERE run_id = 'r2'").execute())
          .iterator().next().getString(0).replace(" ", ""));

      // Resume after a partial copy and a change at the source: only what is missing or different is copied.
      for (String id : List.of("doc-1", "doc-2", "doc-3")) {
        await(target.delete(id));
      }
      await(sqlite.upsert(new Document("doc-4", "default", "Title 4 changed", null, "New text", new JsonObject(), null, 0,
          null, null), List.of(new Chunk("doc-4", 0, 1, "Changed chunk", PgStoreBehaviourTest.unit(new float[] {1, 1, 0, 0})))));
      sqlite("INSERT INTO runs (run_id, profile, status, next_phase, created_at, updated_at, body)"
          + " VALUES ('r3', 'risk', 'queued', NULL, 5, 5, '{}')");
      var second = await(MigrateStoreCommand.migrate(vertx, file, conf(), 10));
      assertTrue(second.ok(), second.problems().toString());
      assertEquals(4, second.copied());
      assertEquals(21, second.skipped());
      assertEquals(3L, second.tables().get("runs")[1]);
      assertEquals("Changed chunk", await(target.chunks("doc-4", 0, 9)).get(0).text());
      assertEquals(1, await(target.chunks("doc-4", 0, 9)).size());
      assertEquals(25, await(target.stats()).documents());
    } finally {
      await(pgDb.close());
    }
  }

  @Test
  void commandLineChecksItsArgumentsAndExitsZeroWhenVerified() throws Exception {
    Path config = dir.resolve("argus.json");
    Files.writeString(config, conf().raw().encodePrettily());
    assertEquals(2, new CommandLine(new Main()).execute("migrate-store", "--from", file.toString(), "--to", "mysql",
        "--config", config.toString()));
    assertEquals(2, new CommandLine(new Main()).execute("migrate-store", "--from", dir.resolve("nope.db").toString(),
        "--to", "postgres", "--config", config.toString()));
    await(sqliteDb.close()); // the command opens the file itself
    sqliteDb = await(Database.sqlite(vertx, file));
    assertEquals(0, new CommandLine(new Main()).execute("migrate-store", "--from", file.toString(), "--to", "postgres",
        "--config", config.toString()));
    try (var c = PgTestDatabase.connect(pg.conf()); var rs = c.createStatement().executeQuery("SELECT count(*) FROM documents")) {
      rs.next();
      assertEquals(25, rs.getInt(1));
    }
  }
}
