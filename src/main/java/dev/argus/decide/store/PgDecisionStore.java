package dev.argus.decide.store;

import dev.argus.store.Database;

/** The decision store on PostgreSQL: {@code ?} placeholders become {@code $1, $2, ...}. */
public final class PgDecisionStore extends SqlDecisionStore {

  public PgDecisionStore(Database db) {
    super(db);
  }

  @Override
  String sql(String statement) {
    StringBuilder out = new StringBuilder(statement.length() + 16);
    int n = 0;
    for (int i = 0; i < statement.length(); i++) {
      char c = statement.charAt(i);
      if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
