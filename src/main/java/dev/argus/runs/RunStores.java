package dev.argus.runs;

import dev.argus.store.Database;

/** Creates the {@link RunStore} for the database's dialect. */
public final class RunStores {

  private RunStores() {
  }

  public static RunStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgRunStore(db.pool()) : new SqliteRunStore(db);
  }
}
