package dev.argus.observe;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The contract on a fresh PostgreSQL database, dropped afterwards. */
class PgTraceStoreTest extends TraceStoreContract {

  private PgTestDatabase pg;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return vertx.executeBlocking(() -> pg = PgTestDatabase.create(), false)
        .compose(p -> Database.postgres(vertx, p.conf()));
  }

  @Override
  protected void dropDatabase() {
    pg.close();
  }
}
