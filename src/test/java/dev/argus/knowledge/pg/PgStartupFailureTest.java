package dev.argus.knowledge.pg;

import dev.argus.store.PgExtensions;

import dev.argus.config.PgConf;
import dev.argus.store.Database;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.sql.Connection;
import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Start-up against an unreachable server and with a missing extension stops with a clear message. */
class PgStartupFailureTest {

  private static Vertx vertx;

  @BeforeAll
  static void open() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void close() {
    await(vertx.close());
  }

  @Test
  void serverDownAtStartFailsClearlyAfterTheConfiguredRetriesWithBackoff() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort(); // free now, and nothing listens on it once closed
    }
    PgConf base = PgTestDatabase.localConf();
    PgConf down = new PgConf("127.0.0.1", closedPort, "argus", base.user(), base.password(), 2, 3, 100, 16, 64, 200, 500, 6000);
    long start = System.nanoTime();
    IllegalStateException err = assertThrows(IllegalStateException.class, () -> await(Database.postgres(vertx, down)));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(err.getMessage().contains("PostgreSQL at 127.0.0.1:" + closedPort + "/argus is not usable after 4 attempts"),
        err.getMessage());
    assertTrue(err.getMessage().toLowerCase().contains("refused"), err.getMessage());
    // Backoff 100, 200, 400 ms between the four attempts.
    assertTrue(elapsedMs >= 700, "retried with backoff, took " + elapsedMs + " ms");
  }

  @Test
  void missingExtensionIsNamedAndNotRetried() throws Exception {
    try (PgTestDatabase pg = PgTestDatabase.create(); Connection c = PgTestDatabase.connect(pg.conf())) {
      PgExtensions.MissingExtensionException err = assertThrows(PgExtensions.MissingExtensionException.class,
          () -> PgExtensions.ensure(c, List.of("pg_trgm", "argus_no_such_extension"), "test-server"));
      assertTrue(err.getMessage().startsWith("PostgreSQL extension 'argus_no_such_extension'"), err.getMessage());
      assertTrue(err.getMessage().contains("is not installed on the server test-server"), err.getMessage());
      // Available but not yet created extensions are created.
      pg.execute("DROP EXTENSION pg_trgm");
      PgExtensions.ensure(c, PgExtensions.REQUIRED, "test-server");
      try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM pg_extension WHERE extname IN ('vector', 'pg_trgm')")) {
        rs.next();
        assertEquals(2, rs.getInt(1));
      }
    }
  }
}
