package dev.argus.graph;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** {@link IdentifierSharing} on a fresh PostgreSQL database, dropped afterwards. */
class PgIdentifierSharingTest extends IdentifierSharingContract {

  private PgTestDatabase pg;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    return vertx.executeBlocking(() -> pg = PgTestDatabase.create(), false)
        .compose(db -> Database.postgres(vertx, db.conf()));
  }

  @Override
  protected void dropDatabase() {
    pg.close();
  }
}
