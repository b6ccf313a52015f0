package dev.argus.graph;

import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** {@link IdentifierSharing} on a real SQLite file. */
class SqliteIdentifierSharingTest extends IdentifierSharingContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db"));
  }
}
