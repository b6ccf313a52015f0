package dev.argus.runs;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

import java.util.function.Supplier;

/** Runs in the embedded SQLite file (JSON kept as text); schema {@code db/migration/sqlite/V2__runs.sql}. */
public final class SqliteRunStore extends SqlRunStore {

  private static final Queries SQL = new Queries(
      "INSERT INTO runs (run_id, profile, status, next_phase, created_at, updated_at, body) VALUES (?, ?, ?, ?, ?, ?, ?) "
          + "ON CONFLICT (run_id) DO UPDATE SET profile = excluded.profile, status = excluded.status, "
          + "next_phase = excluded.next_phase, updated_at = excluded.updated_at, body = excluded.body",
      "SELECT body FROM runs WHERE run_id = ?",
      "SELECT body FROM runs WHERE status = ? ORDER BY created_at, run_id LIMIT ?",
      "INSERT INTO run_events (run_id, event_id, type, data, created_at) VALUES (?, ?, ?, ?, ?) "
          + "ON CONFLICT (run_id, event_id) DO NOTHING",
      "SELECT event_id, type, data, created_at FROM run_events WHERE run_id = ? AND event_id > ? ORDER BY event_id",
      "SELECT MAX(event_id) FROM run_events WHERE run_id = ?");

  private final Object lock = new Object();
  private Future<?> tail = Future.succeededFuture();

  public SqliteRunStore(Pool pool) {
    super(pool, SQL);
  }

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    synchronized (lock) {
      Future<T> next = tail.transform(ignored -> action.get());
      tail = next;
      return next;
    }
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
