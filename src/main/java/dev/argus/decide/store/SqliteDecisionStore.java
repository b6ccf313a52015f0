package dev.argus.decide.store;

import dev.argus.store.Database;

/** The decision store on SQLite ({@code ?} placeholders as written). */
public final class SqliteDecisionStore extends SqlDecisionStore {

  public SqliteDecisionStore(Database db) {
    super(db);
  }

  @Override
  String sql(String statement) {
    return statement;
  }
}
