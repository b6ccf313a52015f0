package dev.argus.decide.store;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;

/** The decision store on PostgreSQL: {@code ?} placeholders become {@code $1, $2, ...}. */
public final class PgDecisionStore extends SqlDecisionStore {

  public PgDecisionStore(Database db) {
    super(db);
  }

  @Override
  String sql(String statement) {
    return SqlParams.numbered(statement);
  }
}
