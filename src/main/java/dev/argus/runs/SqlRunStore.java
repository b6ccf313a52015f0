package dev.argus.runs;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL shape both run stores share: a {@code runs} table (indexed columns plus the whole record as JSON) and a
 * {@code run_events} table keyed by {@code (run_id, event_id)}. Subclasses give the dialect's statements and how a
 * JSON value is bound and read.
 */
abstract class SqlRunStore implements RunStore {

  /** The statements of one dialect, in the order of the parameters each one takes. */
  record Queries(String upsertRun, String findRun, String findByStatus, String events,
                 String lastEventId, String upsertTurn, String trimTurns, String recentTurns, String purgeTurns,
                 String purgeRunEvents, String purgeRuns) {
  }

  final Pool pool;
  private final Queries sql;

  SqlRunStore(Pool pool, Queries sql) {
    this.pool = pool;
    this.sql = sql;
  }

  static final int EVENTS_PER_STATEMENT = 100;

  /** {@code INSERT ... VALUES (...), (...) ... ON CONFLICT DO NOTHING} for {@code rows} events, in the dialect. */
  abstract String insertEvents(int rows);

  /**
   * {@code SELECT run_id, profile, status, created_at, updated_at, question FROM runs WHERE created_at < ?
   * [AND status = ?] [AND <input.namespace> IN (?...)] ORDER BY created_at DESC, run_id DESC LIMIT ?} in the dialect.
   */
  abstract String recentQuery(boolean byStatus, int namespaces);

  /** Runs one read statement. */
  Future<RowSet<Row>> run(String statement, Tuple args) {
    return pool.preparedQuery(statement).execute(args);
  }

  /** Runs one write statement (SQLite: in {@code BEGIN IMMEDIATE}/{@code COMMIT}, see {@code Database.inTransaction}). */
  Future<RowSet<Row>> runWrite(String statement, Tuple args) {
    return pool.preparedQuery(statement).execute(args);
  }

  /** Runs one write; SQLite serializes its writers in process instead of contending for the file lock. */
  <T> Future<T> write(java.util.function.Supplier<Future<T>> action) {
    return action.get();
  }

  /** Runs {@code work} in one transaction on one connection (committed when it succeeds). */
  abstract <T> Future<T> transaction(java.util.function.Function<io.vertx.sqlclient.SqlConnection, Future<T>> work);

  /** Selects the run's lease row if held by a node at a hand-over count (PostgreSQL: and locks it). */
  abstract String leaseHeld();

  private static final String DROP_LEASE = "DELETE FROM run_leases WHERE run_id = ? AND node_id = ?";

  /** The value bound for a JSON column. */
  abstract Object bindJson(JsonObject json);

  /** The JSON read back from a JSON column. */
  abstract JsonObject readJson(Row row, String column);

  @Override
  public Future<Void> save(Run run) {
    // run_id, profile, status, next_phase, created_at, updated_at, body
    Tuple row = Tuple.of(run.runId(), run.profile(), run.status().wire(), run.nextPhase(), run.createdAtMs(),
        run.updatedAtMs(), bindJson(run.toJson()));
    return write(() -> runWrite(sql.upsertRun(), row).mapEmpty());
  }

  @Override
  public Future<Optional<Run>> find(String runId) {
    return run(sql.findRun(), Tuple.of(runId)).map(rows -> {
      for (Row row : rows) {
        return Optional.of(Run.fromJson(readJson(row, "body")));
      }
      return Optional.empty();
    });
  }

  @Override
  public Future<List<Run>> findByStatus(RunStatus status, int limit) {
    return run(sql.findByStatus(), Tuple.of(status.wire(), limit)).map(rows -> {
      List<Run> runs = new ArrayList<>();
      for (Row row : rows) {
        runs.add(Run.fromJson(readJson(row, "body")));
      }
      return runs;
    });
  }

  @Override
  public Future<List<RunSummary>> recent(int limit, Long beforeMs, RunStatus status, List<String> namespaces) {
    if (limit < 1 || limit > MAX_RECENT) {
      return Future.failedFuture(new IllegalArgumentException("limit must be 1.." + MAX_RECENT));
    }
    if (namespaces != null && namespaces.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    // created_at < ?, [status = ?], [namespace IN (?, ...)], LIMIT ?
    Tuple args = Tuple.of(beforeMs == null ? Long.MAX_VALUE : beforeMs);
    if (status != null) {
      args.addValue(status.wire());
    }
    if (namespaces != null) {
      namespaces.forEach(args::addValue);
    }
    args.addValue(limit);
    return run(recentQuery(status != null, namespaces == null ? 0 : namespaces.size()), args).map(set -> {
      List<RunSummary> out = new ArrayList<>();
      for (Row row : set) {
        out.add(new RunSummary(row.getString("run_id"), row.getString("profile"),
            RunStatus.fromWire(row.getString("status")), row.getString("question"), row.getLong("created_at"),
            row.getLong("updated_at")));
      }
      return out;
    });
  }

  @Override
  public Future<Void> appendEvents(List<RunEvent> events) {
    if (events.isEmpty()) {
      return Future.succeededFuture();
    }
    // one multi-row INSERT per slice: a single autocommit statement (no deferred transaction to upgrade)
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < events.size(); from += EVENTS_PER_STATEMENT) {
      List<RunEvent> slice = events.subList(from, Math.min(events.size(), from + EVENTS_PER_STATEMENT));
      Tuple args = Tuple.tuple();
      for (RunEvent e : slice) {
        args.addValue(e.runId()).addValue(e.id()).addValue(e.type()).addValue(bindJson(e.data())).addValue(e.createdAtMs());
      }
      String statement = insertEvents(slice.size());
      chain = chain.compose(v -> write(() -> runWrite(statement, args).mapEmpty()));
    }
    return chain;
  }

  @Override
  public Future<Boolean> endLeased(Run ended, List<RunEvent> events, String nodeId, int fence) {
    String runId = ended.runId();
    return write(() -> transaction(conn -> conn.preparedQuery(leaseHeld()).execute(Tuple.of(runId, nodeId, fence))
        .compose(held -> {
          if (held.size() == 0) {
            return Future.succeededFuture(false); // another node took the run over: it ends it, not this one
          }
          Future<?> chain = Future.succeededFuture();
          for (int from = 0; from < events.size(); from += EVENTS_PER_STATEMENT) {
            List<RunEvent> slice = events.subList(from, Math.min(events.size(), from + EVENTS_PER_STATEMENT));
            Tuple args = Tuple.tuple();
            for (RunEvent e : slice) {
              args.addValue(e.runId()).addValue(e.id()).addValue(e.type()).addValue(bindJson(e.data()))
                  .addValue(e.createdAtMs());
            }
            chain = chain.compose(v -> conn.preparedQuery(insertEvents(slice.size())).execute(args));
          }
          Tuple row = Tuple.of(runId, ended.profile(), ended.status().wire(), ended.nextPhase(), ended.createdAtMs(),
              ended.updatedAtMs(), bindJson(ended.toJson()));
          return chain.compose(v -> conn.preparedQuery(sql.upsertRun()).execute(row))
              .compose(v -> conn.preparedQuery(dialect(DROP_LEASE)).execute(Tuple.of(runId, nodeId)))
              .map(true);
        })));
  }

  /** A statement with {@code ?} placeholders in the dialect. */
  abstract String dialect(String statement);

  @Override
  public Future<List<RunEvent>> events(String runId, long afterId) {
    return run(sql.events(), Tuple.of(runId, afterId)).map(rows -> {
      List<RunEvent> out = new ArrayList<>();
      for (Row row : rows) {
        out.add(new RunEvent(runId, row.getLong("event_id"), row.getString("type"), readJson(row, "data"),
            row.getLong("created_at")));
      }
      return out;
    });
  }

  @Override
  public Future<Void> appendTurn(SessionTurn t, int keep) {
    // session_id, run_id, question, standalone, answer, created_at; then session_id, session_id, keep
    Tuple row = Tuple.of(t.sessionId(), t.runId(), t.question(), t.standalone(), t.answer(), t.createdAtMs());
    Tuple trim = Tuple.of(t.sessionId(), t.sessionId(), keep);
    return write(() -> runWrite(sql.upsertTurn(), row)).compose(x -> write(() -> runWrite(sql.trimTurns(), trim)))
        .mapEmpty();
  }

  @Override
  public Future<List<SessionTurn>> recentTurns(String sessionId, long sinceMs, int limit) {
    return run(sql.recentTurns(), Tuple.of(sessionId, sinceMs, limit)).map(rows -> {
      List<SessionTurn> out = new ArrayList<>();
      for (Row row : rows) {
        out.add(0, new SessionTurn(sessionId, row.getString("run_id"), row.getString("question"),
            row.getString("standalone"), row.getString("answer"), row.getLong("created_at")));
      }
      return out;
    });
  }

  @Override
  public Future<Integer> purgeTurns(long beforeMs) {
    return write(() -> runWrite(sql.purgeTurns(), Tuple.of(beforeMs))).map(RowSet::rowCount);
  }

  @Override
  public Future<Purged> purgeRuns(long beforeMs) {
    // events first: a crash in between leaves runs without logs, which the next purge deletes
    Tuple args = Tuple.of(beforeMs);
    return write(() -> runWrite(sql.purgeRunEvents(), args)).compose(events ->
        write(() -> runWrite(sql.purgeRuns(), args)).map(runs -> new Purged(runs.rowCount(), events.rowCount())));
  }

  @Override
  public Future<Long> lastEventId(String runId) {
    return run(sql.lastEventId(), Tuple.of(runId)).map(rows -> {
      for (Row row : rows) {
        Long v = row.getLong(0);
        return v == null ? 0L : v;
      }
      return 0L;
    });
  }
}
