package dev.argus.access;

import dev.argus.store.Database;
import io.vertx.core.Future;

import java.util.List;

/**
 * The append-only audit log (table {@code audit_log}, migration V12; triggers refuse updates and deletes). Two
 * dialects ({@link SqlAuditStore}), one contract test suite.
 */
public interface AuditStore {

  /** Appends the entry; its sequence number. */
  Future<Long> append(AuditEntry entry);

  /** The newest entries first, those with {@code seq < before} (0: from the newest), at most {@code limit}. */
  Future<List<AuditEntry>> list(long before, int limit);

  static AuditStore of(Database db) {
    return new SqlAuditStore(db);
  }
}
