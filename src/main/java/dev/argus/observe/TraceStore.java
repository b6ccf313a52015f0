package dev.argus.observe;

import dev.argus.store.Database;
import io.vertx.core.Future;

import java.util.Optional;

/**
 * The stored traces of runs, one per run ({@code run_traces}, migration V13). Two implementations (SQLite and
 * PostgreSQL) pass one contract test suite ({@code TraceStoreContract}). Every method is non-blocking.
 */
public interface TraceStore {

  /** Stores the run's trace (again for the same run: replaced). */
  Future<Void> save(RunTrace trace);

  Future<Optional<RunTrace>> find(String runId);

  /** Deletes the traces created before {@code beforeMs}; completes with how many. */
  Future<Integer> purge(long beforeMs);

  static TraceStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgTraceStore(db) : new SqliteTraceStore(db);
  }
}
