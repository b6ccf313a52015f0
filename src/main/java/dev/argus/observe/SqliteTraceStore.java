package dev.argus.observe;

import dev.argus.store.Database;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

/** Run traces in the embedded SQLite file (JSON as text); schema {@code db/migration/sqlite/V13__observe.sql}. */
final class SqliteTraceStore extends SqlTraceStore {

  SqliteTraceStore(Database db) {
    super(db, new Queries(
        "INSERT INTO run_traces (run_id, trace_id, created_at, body) VALUES (?, ?, ?, ?) ON CONFLICT (run_id) "
            + "DO UPDATE SET trace_id = excluded.trace_id, created_at = excluded.created_at, body = excluded.body",
        "SELECT trace_id, created_at, body FROM run_traces WHERE run_id = ?",
        "DELETE FROM run_traces WHERE created_at < ?"));
  }

  @Override
  Object bindJson(JsonObject json) {
    return json.encode();
  }

  @Override
  JsonObject readJson(Row row) {
    return new JsonObject(row.getString("body"));
  }
}
