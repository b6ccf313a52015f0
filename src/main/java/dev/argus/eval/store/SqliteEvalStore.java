package dev.argus.eval.store;

import dev.argus.store.Database;
import io.vertx.core.Future;

import java.util.function.Supplier;

/**
 * Evaluations in the embedded SQLite file; schema {@code db/migration/sqlite/V11__evaluation.sql}. Writes go one at a
 * time through an in-process queue (as the run store's do) and are retried a few times on {@code SQLITE_BUSY}.
 */
public final class SqliteEvalStore extends SqlEvalStore {

  private final Object lock = new Object();
  private Future<?> tail = Future.succeededFuture();

  public SqliteEvalStore(Database db) {
    super(db);
  }

  @Override
  String sql(String statement) {
    return statement;
  }

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    synchronized (lock) {
      Future<T> next = tail.transform(ignored -> retryBusy(action, 0));
      tail = next;
      return next;
    }
  }

  private static <T> Future<T> retryBusy(Supplier<Future<T>> action, int attempt) {
    return action.get().recover(err -> {
      String m = String.valueOf(err.getMessage());
      if (attempt < 5 && (m.contains("SQLITE_BUSY") || m.contains("database is locked"))) {
        return retryBusy(action, attempt + 1);
      }
      return Future.failedFuture(err);
    });
  }

  /** SQLite's JDBC driver reports floating columns as single-precision REAL: selected as exact text instead. */
  @Override
  String num(String expr) {
    return "CASE WHEN " + expr + " IS NULL THEN NULL ELSE printf('%.17g', " + expr + ") END";
  }
}
