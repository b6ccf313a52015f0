package dev.argus.store;

import io.vertx.sqlclient.Tuple;

/**
 * The arguments of one parameterized statement and their placeholders: {@code ?} (SQLite over JDBC) or {@code $n}
 * (PostgreSQL, {@code numbered}). {@link #add} returns the placeholder to write into the SQL text.
 */
public final class SqlParams {

  public final Tuple tuple = Tuple.tuple();
  private final boolean numbered;

  public SqlParams(boolean numbered) {
    this.numbered = numbered;
  }

  public String add(Object value) {
    tuple.addValue(value);
    return numbered ? "$" + tuple.size() : "?";
  }
}
