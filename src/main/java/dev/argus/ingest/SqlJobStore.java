package dev.argus.ingest;

import dev.argus.store.Database;
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
    return db.inTransaction(conn -> conn.preparedQuery(sql.upsert()).execute(args)).mapEmpty();
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
      String now = Instant.now().toString();
      Future<Void> chain = Future.succeededFuture();
      for (JsonObject job : jobs) {
        job.put("status", IngestJob.Status.INTERRUPTED.wireName()).put("finishedAt", now)
            .put("error", "interrupted: the service stopped before the job finished; the documents listed were stored,"
                + " the others were not");
        chain = chain.compose(v -> save(job));
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
