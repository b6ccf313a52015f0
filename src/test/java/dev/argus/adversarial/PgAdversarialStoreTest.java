package dev.argus.adversarial;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The contract on a fresh PostgreSQL database, dropped afterwards. */
class PgAdversarialStoreTest extends AdversarialStoreContract {

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
