package dev.argus.backtest;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The backtest store contract on a fresh PostgreSQL database, dropped afterwards. */
class PgBacktestStoreTest extends BacktestStoreContract {

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
