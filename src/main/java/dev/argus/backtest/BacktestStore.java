package dev.argus.backtest;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Backtest jobs and reports in the database (table {@code backtests}, migration V10_5, both dialects): a job is saved
 * when it starts and again when it ends (with its report and verdicts), so a backtest's status and report survive a
 * restart. Statements are written with {@code ?} placeholders, turned into {@code $n} on PostgreSQL.
 */
public final class BacktestStore {

  /** A stored job: its JSON (with the report when finished) and its verdicts (empty while running). */
  public record Stored(JsonObject job, JsonArray verdicts) {
  }

  private final Database db;

  public BacktestStore(Database db) {
    this.db = db;
  }

  private String sql(String statement) {
    if (db.dialect() != Database.Dialect.POSTGRES) {
      return statement;
    }
    StringBuilder out = new StringBuilder(statement.length() + 16);
    int n = 0;
    for (int i = 0; i < statement.length(); i++) {
      char c = statement.charAt(i);
      out.append(c == '?' ? "$" + (++n) : String.valueOf(c));
    }
    return out.toString();
  }

  private Future<RowSet<Row>> run(String statement, Tuple params) {
    return db.pool().preparedQuery(sql(statement)).execute(params);
  }

  /** Inserts or replaces the job's row. */
  public Future<Void> save(JsonObject job, JsonArray verdicts, long createdAtMs) {
    return run("INSERT INTO backtests (backtest_id, status, created_at, updated_at, job, verdicts) VALUES (?, ?, ?, ?, ?, ?) "
        + "ON CONFLICT (backtest_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, "
        + "job = excluded.job, verdicts = excluded.verdicts", Tuple.tuple().addString(job.getString("backtestId"))
        .addString(job.getString("status")).addLong(createdAtMs).addLong(System.currentTimeMillis())
        .addString(job.encode()).addString(verdicts == null ? null : verdicts.encode())).mapEmpty();
  }

  public Future<Optional<Stored>> get(String backtestId) {
    return run("SELECT job, verdicts FROM backtests WHERE backtest_id = ?", Tuple.of(backtestId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row r = rows.iterator().next();
      String v = r.getString("verdicts");
      return Optional.of(new Stored(new JsonObject(r.getString("job")), v == null ? new JsonArray() : new JsonArray(v)));
    });
  }

  /** The newest jobs first, without their reports. */
  public Future<List<JsonObject>> list(int limit) {
    return run("SELECT job FROM backtests ORDER BY created_at DESC, backtest_id LIMIT ?", Tuple.of(limit)).map(rows -> {
      List<JsonObject> out = new ArrayList<>();
      rows.forEach(r -> {
        JsonObject job = new JsonObject(r.getString("job"));
        job.remove("report");
        out.add(job);
      });
      return out;
    });
  }

  /** Marks the jobs left running by an earlier process as failed; the number marked. */
  public Future<Integer> failInterrupted(String reason) {
    return run("SELECT backtest_id, job FROM backtests WHERE status = ?", Tuple.of("running")).compose(rows -> {
      List<Future<Void>> writes = new ArrayList<>();
      for (Row r : rows) {
        JsonObject job = new JsonObject(r.getString("job")).put("status", "failed").put("error", reason);
        writes.add(run("UPDATE backtests SET status = ?, updated_at = ?, job = ? WHERE backtest_id = ?",
            Tuple.tuple().addString("failed").addLong(System.currentTimeMillis()).addString(job.encode())
                .addString(r.getString("backtest_id"))).mapEmpty());
      }
      return Future.all(writes).map(rows.size());
    });
  }
}
