package dev.argus.decide.store;

import dev.argus.store.Database;

/** Creates the {@link DecisionStore} for the database's dialect. */
public final class DecisionStores {

  private DecisionStores() {
  }

  public static DecisionStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgDecisionStore(db) : new SqliteDecisionStore(db);
  }
}
