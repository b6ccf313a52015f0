package dev.argus.runs;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SqliteRunStoreTest extends RunStoreContract {

  private Path file;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    file = TestApp.tempDataDir().resolve("argus.db");
    return Database.sqlite(vertx, file);
  }

  /**
   * Another store writing in transactions on the shared pool at the same time: the run store's writes are all
   * committed and visible to other readers (vertx-jdbc-client's withTransaction once left connections out of
   * auto-commit; both stores now use {@code Database.inTransaction}).
   */
  @Test
  void writesAreCommittedAfterOtherStoresUsedTransactions() throws Exception {
    await(db.pool().query("CREATE TABLE IF NOT EXISTS other_store (x INTEGER)").execute());
    List<Future<?>> txs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      txs.add(db.inTransaction(c -> c.preparedQuery("INSERT INTO other_store VALUES (?)").execute(Tuple.of(1))));
    }
    String marker = "visible-" + System.nanoTime();
    for (int i = 0; i < 10; i++) {
      txs.add(store.save(Run.start(marker + "-" + i, "assistant", new RunInput("q", "default", null, null), 1)));
    }
    await(Future.all(txs));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
         ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM runs WHERE run_id LIKE '" + marker + "%'")) {
      rs.next();
      assertEquals(10, rs.getInt(1));
    }
  }
}
