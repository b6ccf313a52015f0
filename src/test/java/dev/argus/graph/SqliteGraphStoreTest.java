package dev.argus.graph;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Files;

/** The graph contract on a real SQLite file. */
class SqliteGraphStoreTest extends GraphStoreContract {

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    try {
      return Database.sqlite(vertx, Files.createTempDirectory("argus-graph-").resolve("argus.db"));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
