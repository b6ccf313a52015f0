package dev.argus.records;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The contract on a fresh PostgreSQL database (pg_trgm for the watchlist names), dropped afterwards. */
class PgRecordStoreTest extends RecordStoreContract {

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

  @Override
  protected String allTableText() {
    return tableText("SELECT r::text FROM records r") + tableText("SELECT l::text FROM record_labels l")
        + tableText("SELECT s::text FROM record_subjects s") + tableText("SELECT w::text FROM watchlist_names w");
  }
}
