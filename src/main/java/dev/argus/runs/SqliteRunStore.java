package dev.argus.runs;

import java.util.function.Function;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import dev.argus.store.Database;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.function.Supplier;

/**
 * Runs in the embedded SQLite file (JSON kept as text); schema {@code db/migration/sqlite/V2__runs.sql} and
 * {@code V5__session_turns.sql}.
 */
public final class SqliteRunStore extends SqlRunStore {

  private static final Queries SQL = new Queries(
      "INSERT INTO runs (run_id, profile, status, next_phase, created_at, updated_at, body) VALUES (?, ?, ?, ?, ?, ?, ?) "
          + "ON CONFLICT (run_id) DO UPDATE SET profile = excluded.profile, status = excluded.status, "
          + "next_phase = excluded.next_phase, updated_at = excluded.updated_at, body = excluded.body",
      "SELECT body FROM runs WHERE run_id = ?",
      "SELECT body FROM runs WHERE status = ? ORDER BY created_at, run_id LIMIT ?",
      "SELECT event_id, type, data, created_at FROM run_events WHERE run_id = ? AND event_id > ? ORDER BY event_id",
      "SELECT MAX(event_id) FROM run_events WHERE run_id = ?",
      "INSERT INTO session_turns (session_id, run_id, question, standalone, answer, created_at) "
          + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, run_id) DO UPDATE SET question = excluded.question, "
          + "standalone = excluded.standalone, answer = excluded.answer, created_at = excluded.created_at",
      "DELETE FROM session_turns WHERE session_id = ? AND run_id NOT IN (SELECT run_id FROM session_turns "
          + "WHERE session_id = ? ORDER BY created_at DESC, run_id DESC LIMIT ?)",
      "SELECT run_id, question, standalone, answer, created_at FROM session_turns WHERE session_id = ? "
          + "AND created_at >= ? ORDER BY created_at DESC, run_id DESC LIMIT ?",
      "DELETE FROM session_turns WHERE created_at < ?",
      "DELETE FROM run_events WHERE run_id IN (SELECT run_id FROM runs WHERE updated_at < ? AND status <> 'running')",
      "DELETE FROM runs WHERE updated_at < ? AND status <> 'running'");

  private final Object lock = new Object();
  private Future<?> tail = Future.succeededFuture();

  private final Database db;

  public SqliteRunStore(Database db) {
    super(db.pool(), SQL);
    this.db = db;
  }

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    synchronized (lock) {
      Future<T> next = tail.transform(ignored -> retryBusy(action, 0));
      tail = next;
      return next;
    }
  }

  /**
   * Another store writing through another connection of the shared pool can make SQLite answer SQLITE_BUSY(_SNAPSHOT)
   * at once instead of waiting: retried a few times before failing.
   */
  private static <T> Future<T> retryBusy(Supplier<Future<T>> action, int attempt) {
    return action.get().recover(err -> {
      String m = String.valueOf(err.getMessage());
      if (attempt < 5 && (m.contains("SQLITE_BUSY") || m.contains("database is locked"))) {
        return retryBusy(action, attempt + 1);
      }
      return Future.failedFuture(err);
    });
  }

  /** Writes take the write lock up front (no deferred transaction to upgrade, no stale snapshot). */
  @Override
  Future<RowSet<Row>> runWrite(String statement, Tuple args) {
    return db.inTransaction(conn -> conn.preparedQuery(statement).execute(args));
  }

  @Override
  <T> Future<T> transaction(Function<SqlConnection, Future<T>> work) {
    return db.inTransaction(work); // BEGIN IMMEDIATE: the write lock is held from the lease check to the commit
  }

  @Override
  String leaseHeld() {
    return "SELECT run_id FROM run_leases WHERE run_id = ? AND node_id = ? AND takeovers = ?";
  }

  @Override
  String dialect(String statement) {
    return statement;
  }

  @Override
  String recentQuery(boolean byStatus, int namespaces) {
    StringBuilder sb = new StringBuilder("SELECT run_id, profile, status, created_at, updated_at, "
        + "json_extract(body, '$.input.question') AS question FROM runs WHERE created_at < ?");
    if (byStatus) {
      sb.append(" AND status = ?");
    }
    if (namespaces > 0) {
      sb.append(" AND json_extract(body, '$.input.namespace') IN (").append("?, ".repeat(namespaces - 1)).append("?)");
    }
    return sb.append(" ORDER BY created_at DESC, run_id DESC LIMIT ?").toString();
  }

  @Override
  String insertEvents(int rows) {
    StringBuilder sb = new StringBuilder("INSERT INTO run_events (run_id, event_id, type, data, created_at) VALUES ");
    for (int i = 0; i < rows; i++) {
      sb.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?)");
    }
    return sb.append(" ON CONFLICT (run_id, event_id) DO NOTHING").toString();
  }

  @Override
  Object bindJson(JsonObject json) {
    return json.encode();
  }

  @Override
  JsonObject readJson(Row row, String column) {
    return new JsonObject(row.getString(column));
  }
}
