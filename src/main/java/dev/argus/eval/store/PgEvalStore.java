package dev.argus.eval.store;

import dev.argus.store.SqlParams;
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
    return SqlParams.numbered(statement);
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
