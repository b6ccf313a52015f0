package dev.argus.graph;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The graph contract on a fresh PostgreSQL database, dropped afterwards. */
class PgGraphStoreTest extends GraphStoreContract {

  private PgTestDatabase pg;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    pg = PgTestDatabase.create();
    return Database.postgres(vertx, pg.conf());
  }

  @Override
  protected void dropDatabase() {
    pg.close();
  }
}
