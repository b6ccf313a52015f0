package dev.argus.eval.store;

import dev.argus.store.Database;
import io.vertx.core.Future;

import java.util.function.Supplier;

/** Evaluations in PostgreSQL; schema {@code db/migration/postgres/V11__evaluation.sql}. */
public final class PgEvalStore extends SqlEvalStore {

  public PgEvalStore(Database db) {
    super(db);
  }

  /** {@code ?} placeholders numbered {@code $1, $2, ...} (no statement here has a {@code ?} inside a literal). */
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

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    return action.get();
  }

  @Override
  String num(String expr) {
    return expr;
  }
}
