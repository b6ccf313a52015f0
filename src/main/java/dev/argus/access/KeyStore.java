package dev.argus.access;

import dev.argus.store.Database;
import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;

/**
 * Where API keys are kept (table {@code api_keys}, migration V12): the key's record and its secret's hash, never
 * the secret. Two dialects ({@link SqlKeyStore}), one contract test suite.
 */
public interface KeyStore {

  /** A stored key with the hash its secret must match. */
  record Stored(ApiKey key, String secretHash) {
  }

  Future<Void> insert(ApiKey key, String secretHash);

  /** Every key, active and revoked, newest first. */
  Future<List<ApiKey>> list();

  /** The active keys with their hashes (for the in-memory key ring). */
  Future<List<Stored>> active();

  Future<Optional<ApiKey>> find(String id);

  /** Marks the key revoked now; false when there is no such key or it was revoked already. */
  Future<Boolean> revoke(String id, long at);

  Future<Integer> countActive();

  static KeyStore of(Database db) {
    return new SqlKeyStore(db);
  }
}
