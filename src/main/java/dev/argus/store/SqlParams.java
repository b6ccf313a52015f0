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

  /**
   * A statement written with {@code ?} placeholders, numbered {@code $1, $2, ...} as PostgreSQL's client wants them
   * (no statement of ours has a {@code ?} inside a literal).
   */
  public static String numbered(String withQuestionMarks) {
    StringBuilder out = new StringBuilder(withQuestionMarks.length() + 16);
    int n = 0;
    for (int i = 0; i < withQuestionMarks.length(); i++) {
      char c = withQuestionMarks.charAt(i);
      if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
