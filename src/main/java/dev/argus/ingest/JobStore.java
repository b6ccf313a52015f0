package dev.argus.ingest;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * Where ingestion jobs are kept so that they outlive the process: the job's JSON (as {@code GET
 * /api/ingest/jobs/{id}} answers it) by job id. Two dialects ({@link SqlJobStore}), one contract test suite.
 */
public interface JobStore {

  /** Inserts or replaces the job's record. */
  Future<Void> save(JsonObject job);

  Future<Optional<JsonObject>> find(String jobId);

  /**
   * Marks every job still {@code queued} or {@code running} as {@code interrupted} (they belonged to a process that
   * stopped without finishing them), with {@code finishedAt} = now; the number marked.
   */
  Future<Integer> markInterrupted();

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
