package dev.argus.store;

import dev.argus.testing.BlockedThreadGuard;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQLite pool ({@link Database#sqlitePoolOptions}): four connections and no acquisition timer, whose late arming
 * in vertx-sql-client 5.0.8 failed an already served request 30 s later (an unhandled exception on its context).
 */
@ExtendWith(BlockedThreadGuard.class)
class SqlitePoolTest {

  @Test
  void fourConnectionsAndNoAcquisitionTimer() {
    PoolOptions options = Database.sqlitePoolOptions();
    assertEquals(4, options.getMaxSize());
    assertEquals(0, options.getConnectionTimeout(), "a timer armed after the request is served fails it later");
  }

  @Test
  void aRequestQueuedBehindFourBusyConnectionsIsServedWhenOneComesBack() {
    Vertx vertx = Vertx.vertx();
    List<Throwable> unhandled = new CopyOnWriteArrayList<>();
    vertx.exceptionHandler(unhandled::add);
    try {
      Database db = await(Database.sqlite(vertx, TestApp.tempDataDir().resolve("pool.db")));
      List<Promise<Void>> holds = new ArrayList<>();
      List<Future<Void>> held = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Promise<Void> hold = Promise.promise();
        holds.add(hold);
        Promise<Void> acquired = Promise.promise();
        held.add(db.pool().withConnection(conn -> {
          acquired.complete();
          return hold.future();
        }));
        await(acquired.future());
      }
      Future<RowSet<Row>> queued = db.pool().query("SELECT 1").execute();
      await(vertx.timer(300));
      assertFalse(queued.isComplete(), "all four connections are busy");

      holds.get(0).complete();
      assertEquals(1, await(queued).iterator().next().getInteger(0));
      holds.forEach(h -> h.tryComplete());
      held.forEach(h -> await(h));
      await(db.close());
      assertTrue(unhandled.isEmpty(), unhandled.toString());
    } finally {
      await(vertx.close());
    }
  }
}
