package dev.argus.backtest;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The backtest store contract on a real SQLite file. */
class SqliteBacktestStoreTest extends BacktestStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
