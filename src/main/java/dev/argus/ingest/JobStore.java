package dev.argus.ingest;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Optional;

/**
 * Where ingestion jobs are kept so that they outlive the process: the job's JSON (as {@code GET
 * /api/ingest/jobs/{id}} answers it) by job id. Two dialects ({@link SqlJobStore}), one contract test suite.
 */
public interface JobStore {

  /**
   * A job found {@code queued} or {@code running} at start: its last record, the request it still has to finish
   * ({@link IngestRequest#toJson}; null when none was kept), how many times it was resumed since it last made
   * progress, and its processed count at the last resume.
   */
  record Unfinished(JsonObject job, JsonObject request, int attempts, int progress) {
  }

  /**
   * Inserts or replaces the job's record; a finished job's ({@link IngestJob.Status#finished}) kept request is
   * deleted in the same transaction.
   */
  Future<Void> save(JsonObject job);

  /** The first record of a new job and the request it is to run, in one transaction (so a restart can resume it). */
  Future<Void> create(JsonObject job, JsonObject request);

  /** The jobs left {@code queued} or {@code running}, oldest first, with their kept requests. */
  Future<List<Unfinished>> unfinished();

  /** Records a resume of the job: its resumes since it last made progress, and its processed count now. */
  Future<Void> resuming(String jobId, int attempts, int progress);

  Future<Optional<JsonObject>> find(String jobId);

  /**
   * Marks every job still {@code queued} or {@code running} as {@code interrupted} (they belonged to a process that
   * stopped without finishing them), with {@code finishedAt} = now; the number marked.
   */
  Future<Integer> markInterrupted();

  /**
   * Saves {@code job} (a record) as {@code interrupted}, {@code finishedAt} = now, its error saying so, followed by
   * {@code why} when not null.
   */
  default Future<Void> interrupt(JsonObject job, String why) {
    job.put("status", IngestJob.Status.INTERRUPTED.wireName()).put("finishedAt", java.time.Instant.now().toString())
        .put("error", "interrupted: the service stopped before the job finished; the documents listed were stored,"
            + " the others were not" + (why == null ? "" : " (" + why + ")"));
    return save(job);
  }

  /** Deletes the finished jobs last updated before {@code cutoffMs} (epoch ms); the number deleted. */
  Future<Integer> deleteFinishedBefore(long cutoffMs);

  static JobStore of(Database db) {
    return new SqlJobStore(db);
  }

  /** Keeps nothing (jobs live in memory only), for in-process tools that need no job history. */
  static JobStore none() {
    return new JobStore() {
      @Override
      public Future<Void> save(JsonObject job) {
        return Future.succeededFuture();
      }

      @Override
      public Future<Void> create(JsonObject job, JsonObject request) {
        return Future.succeededFuture();
      }

      @Override
      public Future<List<Unfinished>> unfinished() {
        return Future.succeededFuture(List.of());
      }

      @Override
      public Future<Void> resuming(String jobId, int attempts, int progress) {
        return Future.succeededFuture();
      }

      @Override
      public Future<Optional<JsonObject>> find(String jobId) {
        return Future.succeededFuture(Optional.empty());
      }

      @Override
      public Future<Integer> markInterrupted() {
        return Future.succeededFuture(0);
      }

      @Override
      public Future<Integer> deleteFinishedBefore(long cutoffMs) {
        return Future.succeededFuture(0);
      }
    };
  }
}
