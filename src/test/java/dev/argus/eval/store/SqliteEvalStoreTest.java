package dev.argus.eval.store;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The contract on a fresh SQLite file. */
class SqliteEvalStoreTest extends EvalStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
