package dev.argus.ingest;

import dev.argus.store.Database;
import dev.argus.store.SqlParams;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link JobStore} over table {@code ingest_jobs} (migrations {@code V4__ingest_jobs.sql}), in the database's dialect:
 * SQLite keeps the JSON as text, PostgreSQL as {@code jsonb}. Writes run in {@link Database#inTransaction} (on SQLite
 * {@code BEGIN IMMEDIATE}, so concurrent writers wait instead of failing).
 */
final class SqlJobStore implements JobStore {

  /** The statements of one dialect. */
  private record Statements(String upsert, String find, String unfinished, String deleteFinished) {
  }

  private static final String UPSERT_TAIL = " ON CONFLICT (job_id) DO UPDATE SET status = excluded.status, "
      + "updated_at = excluded.updated_at, body = excluded.body";
  private static final String UNFINISHED = "SELECT body FROM ingest_jobs WHERE status IN ('queued', 'running')";

  private static final Statements SQLITE = new Statements(
      "INSERT INTO ingest_jobs (job_id, status, created_at, updated_at, body) VALUES (?, ?, ?, ?, ?)" + UPSERT_TAIL,
      "SELECT body FROM ingest_jobs WHERE job_id = ?",
      UNFINISHED,
      "DELETE FROM ingest_jobs WHERE status NOT IN ('queued', 'running') AND updated_at < ?");

  private static final Statements POSTGRES = new Statements(
      "INSERT INTO ingest_jobs (job_id, status, created_at, updated_at, body) VALUES ($1, $2, $3, $4, $5)" + UPSERT_TAIL,
      "SELECT body FROM ingest_jobs WHERE job_id = $1",
      UNFINISHED,
      "DELETE FROM ingest_jobs WHERE status NOT IN ('queued', 'running') AND updated_at < $1");

  /** Written in both dialects with ? and numbered for PostgreSQL. */
  private static final String INSERT_INPUT = "INSERT INTO ingest_job_inputs (job_id, request) VALUES (?, ?)"
      + " ON CONFLICT (job_id) DO UPDATE SET request = excluded.request, attempts = 0, progress = 0";
  private static final String DELETE_INPUT = "DELETE FROM ingest_job_inputs WHERE job_id = ?";
  private static final String RESUMING = "UPDATE ingest_job_inputs SET attempts = ?, progress = ? WHERE job_id = ?";
  private static final String UNFINISHED_WITH_INPUTS = "SELECT j.body, i.request, i.attempts, i.progress FROM ingest_jobs j"
      + " LEFT JOIN ingest_job_inputs i ON i.job_id = j.job_id WHERE j.status IN ('queued', 'running')"
      + " ORDER BY j.created_at, j.job_id";

  private final Database db;
  private final boolean postgres;
  private final Statements sql;

  SqlJobStore(Database db) {
    this.db = db;
    this.postgres = db.dialect() == Database.Dialect.POSTGRES;
    this.sql = postgres ? POSTGRES : SQLITE;
  }

  @Override
  public Future<Void> save(JsonObject job) {
    long now = System.currentTimeMillis();
    long created = millis(job.getString("createdAt"), now);
    Tuple args = Tuple.of(job.getString("jobId"), job.getString("status"), created, now, bind(job));
    boolean finished = !"queued".equals(job.getString("status")) && !"running".equals(job.getString("status"));
    return db.inTransaction(conn -> conn.preparedQuery(sql.upsert()).execute(args).compose(r -> finished
        ? conn.preparedQuery(dialect(DELETE_INPUT)).execute(Tuple.of(job.getString("jobId")))
        : Future.succeededFuture(r))).mapEmpty();
  }

  @Override
  public Future<Void> create(JsonObject job, JsonObject request) {
    long now = System.currentTimeMillis();
    Tuple args = Tuple.of(job.getString("jobId"), job.getString("status"), millis(job.getString("createdAt"), now),
        now, bind(job));
    // as text in both dialects: jsonb refuses an escaped NUL, which a submitted document may hold
    Tuple input = Tuple.of(job.getString("jobId"), request.encode());
    return db.inTransaction(conn -> conn.preparedQuery(sql.upsert()).execute(args)
        .compose(r -> conn.preparedQuery(dialect(INSERT_INPUT)).execute(input))).mapEmpty();
  }

  @Override
  public Future<List<Unfinished>> unfinished() {
    return db.pool().query(UNFINISHED_WITH_INPUTS).execute().map(rows -> {
      List<Unfinished> out = new ArrayList<>();
      for (Row row : rows) {
        String request = row.getString("request");
        Integer attempts = row.getInteger("attempts");
        Integer progress = row.getInteger("progress");
        out.add(new Unfinished(read(row), request == null ? null : new JsonObject(request),
            attempts == null ? 0 : attempts, progress == null ? 0 : progress));
      }
      return out;
    });
  }

  @Override
  public Future<Void> resuming(String jobId, int attempts, int progress) {
    return db.inTransaction(conn -> conn.preparedQuery(dialect(RESUMING)).execute(Tuple.of(attempts, progress, jobId)))
        .mapEmpty();
  }

  private String dialect(String withQuestionMarks) {
    return postgres ? SqlParams.numbered(withQuestionMarks) : withQuestionMarks;
  }

  @Override
  public Future<Optional<JsonObject>> find(String jobId) {
    return db.pool().preparedQuery(sql.find()).execute(Tuple.of(jobId)).map(rows -> {
      for (Row row : rows) {
        return Optional.of(read(row));
      }
      return Optional.empty();
    });
  }

  @Override
  public Future<Integer> markInterrupted() {
    return db.pool().query(sql.unfinished()).execute().compose(rows -> {
      List<JsonObject> jobs = new ArrayList<>();
      for (Row row : rows) {
        jobs.add(read(row));
      }
      Future<Void> chain = Future.succeededFuture();
      for (JsonObject job : jobs) {
        chain = chain.compose(v -> interrupt(job, null));
      }
      return chain.map(v -> jobs.size());
    });
  }

  @Override
  public Future<Integer> deleteFinishedBefore(long cutoffMs) {
    return db.inTransaction(conn -> conn.preparedQuery(sql.deleteFinished()).execute(Tuple.of(cutoffMs)))
        .map(rows -> rows.rowCount());
  }

  /** The JSON bound for the body column; PostgreSQL's jsonb cannot hold an escaped NUL, so none is ever written. */
  private Object bind(JsonObject job) {
    String text = job.encode().replace("\\u0000", "\\ufffd");
    return postgres ? new JsonObject(text) : text;
  }

  private static JsonObject read(Row row) {
    Object v = row.getValue("body");
    return v instanceof JsonObject o ? o : new JsonObject(String.valueOf(v));
  }

  private static long millis(String instant, long fallback) {
    try {
      return instant == null ? fallback : Instant.parse(instant).toEpochMilli();
    } catch (RuntimeException e) {
      return fallback;
    }
  }
}
