package dev.argus.runs;

import dev.argus.store.SqlParams;
import java.util.function.Function;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;

/**
 * Runs in PostgreSQL (JSON kept as {@code jsonb}); schema {@code db/migration/postgres/V2__runs.sql} and
 * {@code V5__session_turns.sql}.
 */
public final class PgRunStore extends SqlRunStore {

  private static final Queries SQL = new Queries(
      "INSERT INTO runs (run_id, profile, status, next_phase, created_at, updated_at, body) "
          + "VALUES ($1, $2, $3, $4, $5, $6, $7) "
          + "ON CONFLICT (run_id) DO UPDATE SET profile = excluded.profile, status = excluded.status, "
          + "next_phase = excluded.next_phase, updated_at = excluded.updated_at, body = excluded.body",
      "SELECT body FROM runs WHERE run_id = $1",
      "SELECT body FROM runs WHERE status = $1 ORDER BY created_at, run_id LIMIT $2",
      "SELECT event_id, type, data, created_at FROM run_events WHERE run_id = $1 AND event_id > $2 ORDER BY event_id",
      "SELECT MAX(event_id) FROM run_events WHERE run_id = $1",
      "INSERT INTO session_turns (session_id, run_id, question, standalone, answer, created_at) "
          + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (session_id, run_id) DO UPDATE SET question = excluded.question, "
          + "standalone = excluded.standalone, answer = excluded.answer, created_at = excluded.created_at",
      "DELETE FROM session_turns WHERE session_id = $1 AND run_id NOT IN (SELECT run_id FROM session_turns "
          + "WHERE session_id = $2 ORDER BY created_at DESC, run_id DESC LIMIT $3)",
      "SELECT run_id, question, standalone, answer, created_at FROM session_turns WHERE session_id = $1 "
          + "AND created_at >= $2 ORDER BY created_at DESC, run_id DESC LIMIT $3",
      "DELETE FROM session_turns WHERE created_at < $1",
      "DELETE FROM run_events WHERE run_id IN (SELECT run_id FROM runs WHERE updated_at < $1 AND status <> 'running')",
      "DELETE FROM runs WHERE updated_at < $1 AND status <> 'running'");

  public PgRunStore(Pool pool) {
    super(pool, SQL);
  }

  @Override
  String recentQuery(boolean byStatus, int namespaces) {
    StringBuilder sb = new StringBuilder("SELECT run_id, profile, status, created_at, updated_at, "
        + "body->'input'->>'question' AS question FROM runs WHERE created_at < $1");
    int n = 2;
    if (byStatus) {
      sb.append(" AND status = $").append(n++);
    }
    if (namespaces > 0) {
      sb.append(" AND body->'input'->>'namespace' IN (");
      for (int i = 0; i < namespaces; i++) {
        sb.append(i == 0 ? "$" : ", $").append(n++);
      }
      sb.append(')');
    }
    return sb.append(" ORDER BY created_at DESC, run_id DESC LIMIT $").append(n).toString();
  }

  @Override
  String insertEvents(int rows) {
    StringBuilder sb = new StringBuilder("INSERT INTO run_events (run_id, event_id, type, data, created_at) VALUES ");
    for (int i = 0; i < rows; i++) {
      int b = i * 5;
      sb.append(i == 0 ? "" : ", ").append("($").append(b + 1).append(", $").append(b + 2).append(", $").append(b + 3)
          .append(", $").append(b + 4).append(", $").append(b + 5).append(')');
    }
    return sb.append(" ON CONFLICT (run_id, event_id) DO NOTHING").toString();
  }

  @Override
  <T> Future<T> transaction(Function<SqlConnection, Future<T>> work) {
    return pool.withTransaction(work);
  }

  @Override
  String leaseHeld() {
    // FOR UPDATE: a concurrent claim (RunLeases' conditional UPDATE) waits until this end commits or rolls back
    return "SELECT run_id FROM run_leases WHERE run_id = $1 AND node_id = $2 AND takeovers = $3 FOR UPDATE";
  }

  @Override
  String dialect(String statement) {
    return SqlParams.numbered(statement);
  }

  @Override
  Object bindJson(JsonObject json) {
    return json;
  }

  @Override
  JsonObject readJson(Row row, String column) {
    Object v = row.getValue(column);
    return v instanceof JsonObject o ? o : new JsonObject(String.valueOf(v));
  }
}
