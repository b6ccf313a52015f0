package dev.argus.observe;

import dev.argus.store.Database;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

/** Run traces in PostgreSQL (JSON as jsonb); schema {@code db/migration/postgres/V13__observe.sql}. */
final class PgTraceStore extends SqlTraceStore {

  PgTraceStore(Database db) {
    super(db, new Queries(
        "INSERT INTO run_traces (run_id, trace_id, created_at, body) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id) "
            + "DO UPDATE SET trace_id = excluded.trace_id, created_at = excluded.created_at, body = excluded.body",
        "SELECT trace_id, created_at, body FROM run_traces WHERE run_id = $1",
        "DELETE FROM run_traces WHERE created_at < $1"));
  }

  @Override
  Object bindJson(JsonObject json) {
    return json;
  }

  @Override
  JsonObject readJson(Row row) {
    Object v = row.getValue("body");
    return v instanceof JsonObject o ? o : new JsonObject(String.valueOf(v));
  }
}
