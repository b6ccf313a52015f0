package dev.argus.adversarial;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The adversarial store in both dialects ({@code db/migration/{sqlite,postgres}/V16__adversarial.sql}): the same
 * parameterized statements, written with {@code ?} and numbered for PostgreSQL.
 */
public final class SqlAdversarialStore implements AdversarialStore {

  private static final String COLUMNS = "execution_id, suite, size, seed, status, report, error, created_at, finished_at";

  private final Database db;
  private final boolean numbered;

  public SqlAdversarialStore(Database db) {
    this.db = db;
    this.numbered = db.dialect() == Database.Dialect.POSTGRES;
  }

  private String sql(String withQuestionMarks) {
    if (!numbered) {
      return withQuestionMarks;
    }
    return SqlParams.numbered(withQuestionMarks);
  }

  @Override
  public Future<Void> save(AdversarialRun r) {
    return db.pool().preparedQuery(sql("INSERT INTO adversarial_runs (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (execution_id) DO UPDATE SET status = excluded.status, report = excluded.report, "
            + "error = excluded.error, finished_at = excluded.finished_at"))
        .execute(Tuple.from(new Object[] {r.executionId(), r.suiteKey(), r.size(), r.seed(), r.status(),
            r.report() == null ? null : r.report().encode(), r.error(), r.createdAt(), r.finishedAt()}))
        .mapEmpty();
  }

  @Override
  public Future<Optional<AdversarialRun>> get(String executionId) {
    return db.pool().preparedQuery(sql("SELECT " + COLUMNS + " FROM adversarial_runs WHERE execution_id = ?"))
        .execute(Tuple.of(executionId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(run(rows.iterator().next())));
  }

  @Override
  public Future<List<AdversarialRun>> list(int limit) {
    return db.pool().preparedQuery(sql("SELECT " + COLUMNS + " FROM adversarial_runs "
            + "ORDER BY created_at DESC, execution_id DESC LIMIT ?"))
        .execute(Tuple.of(limit))
        .map(rows -> {
          List<AdversarialRun> out = new ArrayList<>();
          rows.forEach(row -> out.add(run(row)));
          return out;
        });
  }

  @Override
  public Future<Optional<AdversarialRun>> previousCompleted(String suiteKey, int size, String exceptId) {
    return db.pool().preparedQuery(sql("SELECT " + COLUMNS + " FROM adversarial_runs WHERE suite = ? AND size = ? "
            + "AND status = ? AND execution_id <> ? ORDER BY created_at DESC, execution_id DESC LIMIT 1"))
        .execute(Tuple.of(suiteKey, size, AdversarialRun.COMPLETED, exceptId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(run(rows.iterator().next())));
  }

  @Override
  public Future<Integer> failInterrupted(long now) {
    return db.pool().preparedQuery(sql("UPDATE adversarial_runs SET status = ?, error = ?, finished_at = ? "
            + "WHERE status = ?"))
        .execute(Tuple.of(AdversarialRun.FAILED, "interrupted: the process stopped while the run was going", now,
            AdversarialRun.RUNNING))
        .map(rows -> rows.rowCount());
  }

  private static AdversarialRun run(Row row) {
    String report = row.getString("report");
    Number finished = (Number) row.getValue("finished_at");
    return new AdversarialRun(row.getString("execution_id"), AdversarialRun.suiteOf(row.getString("suite")),
        ((Number) row.getValue("size")).intValue(), ((Number) row.getValue("seed")).longValue(),
        row.getString("status"), report == null ? null : new JsonObject(report), row.getString("error"),
        ((Number) row.getValue("created_at")).longValue(), finished == null ? null : finished.longValue());
  }
}
