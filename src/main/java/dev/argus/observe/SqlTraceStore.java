package dev.argus.observe;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.Optional;

/** The SQL both trace stores share; subclasses give the dialect's statements and JSON binding. */
abstract class SqlTraceStore implements TraceStore {

  /** upsert (run_id, trace_id, created_at, body); find (run_id); purge (created_at). */
  record Queries(String upsert, String find, String purge) {
  }

  final Database db;
  private final Queries sql;

  SqlTraceStore(Database db, Queries sql) {
    this.db = db;
    this.sql = sql;
  }

  abstract Object bindJson(JsonObject json);

  abstract JsonObject readJson(Row row);

  /** One write statement (SQLite: under {@code BEGIN IMMEDIATE}, see {@code Database.inTransaction}). */
  Future<RowSet<Row>> write(String statement, Tuple args) {
    return db.inTransaction(conn -> conn.preparedQuery(statement).execute(args));
  }

  @Override
  public Future<Void> save(RunTrace trace) {
    return write(sql.upsert(), Tuple.of(trace.runId(), trace.traceId(), trace.createdAtMs(),
        bindJson(new JsonObject().put("spans", trace.spans())))).mapEmpty();
  }

  @Override
  public Future<Optional<RunTrace>> find(String runId) {
    return db.pool().preparedQuery(sql.find()).execute(Tuple.of(runId)).map(rows -> {
      for (Row row : rows) {
        return Optional.of(new RunTrace(runId, row.getString("trace_id"), row.getLong("created_at"),
            readJson(row).getJsonArray("spans", new io.vertx.core.json.JsonArray())));
      }
      return Optional.empty();
    });
  }

  @Override
  public Future<Integer> purge(long beforeMs) {
    return write(sql.purge(), Tuple.of(beforeMs)).map(RowSet::rowCount);
  }
}
