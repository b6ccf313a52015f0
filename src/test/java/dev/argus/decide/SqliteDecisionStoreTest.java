package dev.argus.decide;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The decision store contract on a real SQLite file (triggers RAISE(ABORT) keep decisions append-only). */
class SqliteDecisionStoreTest extends DecisionStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
