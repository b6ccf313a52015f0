package dev.argus.feedback;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

class SqliteFeedbackStoreTest extends FeedbackStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
