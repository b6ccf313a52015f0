package dev.argus.adversarial;

import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;

/** Adversarial runs, in SQLite or PostgreSQL (one contract test suite for both). */
public interface AdversarialStore {

  /** Inserts or replaces the run. */
  Future<Void> save(AdversarialRun run);

  Future<Optional<AdversarialRun>> get(String executionId);

  /** The newest runs first, at most {@code limit}. */
  Future<List<AdversarialRun>> list(int limit);

  /** The newest completed run of the same suite and size, other than {@code exceptId} (the baseline), if any. */
  Future<Optional<AdversarialRun>> previousCompleted(String suiteKey, int size, String exceptId);

  /** Marks runs left {@code running} by a stopped process as failed; completes with how many. */
  Future<Integer> failInterrupted(long now);
}
