package dev.argus.eval.store;

import dev.argus.store.Database;

/** Creates the {@link EvalStore} for the database's dialect. */
public final class EvalStores {

  private EvalStores() {
  }

  public static EvalStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgEvalStore(db) : new SqliteEvalStore(db);
  }
}
