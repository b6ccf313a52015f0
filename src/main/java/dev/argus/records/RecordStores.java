package dev.argus.records;

import dev.argus.store.Database;

/** Creates the {@link RecordStore} for the database's dialect. */
public final class RecordStores {

  private RecordStores() {
  }

  public static RecordStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgRecordStore(db) : new SqliteRecordStore(db);
  }
}
