package dev.argus.adversarial;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

class SqliteAdversarialStoreTest extends AdversarialStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
