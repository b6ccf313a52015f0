package dev.argus.runs;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who drives each running run in cluster mode: a lease per run ({@code run_leases}, migration V14) held by one node
 * until {@code expires_at}. The node renews the leases of the runs it drives; a node that stops renewing (it died, or
 * lost PostgreSQL) loses them, and another node takes them over with one conditional update, so exactly one node
 * wins. Both dialects (the statements are plain SQL; cluster mode itself needs PostgreSQL).
 */
public final class RunLeases {

  private static final String ACQUIRE = "INSERT INTO run_leases (run_id, node_id, expires_at, takeovers, updated_at) "
      + "VALUES (?, ?, ?, 0, ?) ON CONFLICT (run_id) DO NOTHING";
  private static final String RENEW = "UPDATE run_leases SET expires_at = ?, updated_at = ? WHERE node_id = ?";
  private static final String HELD = "SELECT run_id FROM run_leases WHERE node_id = ?";
  private static final String TAKEABLE = "SELECT r.run_id FROM runs r LEFT JOIN run_leases l ON l.run_id = r.run_id "
      + "WHERE r.status = 'running' AND (l.run_id IS NULL OR l.expires_at < ? OR l.node_id = ?) "
      + "ORDER BY r.created_at, r.run_id LIMIT ?";
  private static final String CLAIM_MISSING = "INSERT INTO run_leases (run_id, node_id, expires_at, takeovers, "
      + "updated_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT (run_id) DO NOTHING";
  private static final String CLAIM_EXPIRED = "UPDATE run_leases SET node_id = ?, expires_at = ?, "
      + "takeovers = takeovers + 1, updated_at = ? WHERE run_id = ? AND (expires_at < ? OR node_id = ?)";
  private static final String READ = "SELECT node_id, expires_at, takeovers FROM run_leases WHERE run_id = ?";
  private static final String CONFIRM = "UPDATE run_leases SET expires_at = ?, updated_at = ? WHERE run_id = ? "
      + "AND node_id = ?";
  private static final String SWEEP = "DELETE FROM run_leases WHERE expires_at < ? AND NOT EXISTS (SELECT 1 FROM runs r "
      + "WHERE r.run_id = run_leases.run_id AND r.status = 'running')";
  private static final String RELEASE = "DELETE FROM run_leases WHERE run_id = ? AND node_id = ?";

  /** One lease as stored. */
  public record Lease(String runId, String nodeId, long expiresAtMs, int takeovers) {
  }

  /** Connections of their own (PostgreSQL): renewals and takeovers never queue behind the application's queries. */
  static final int POOL_SIZE = 2;

  private final Database db;
  private final io.vertx.sqlclient.Pool pool;

  public RunLeases(Database db) {
    this.db = db;
    this.pool = db.dedicatedPool(POOL_SIZE);
  }

  /** Takes the lease of a new run; false when the run id already has one (a run of that id is being driven). */
  public Future<Boolean> acquire(String runId, String nodeId, long nowMs, long leaseMs) {
    return write(ACQUIRE, Tuple.of(runId, nodeId, nowMs + leaseMs, nowMs)).map(rs -> rs.rowCount() == 1);
  }

  /** Extends every lease {@code nodeId} holds; completes with the run ids it still holds. */
  public Future<Set<String>> renew(String nodeId, long nowMs, long leaseMs) {
    return write(RENEW, Tuple.of(nowMs + leaseMs, nowMs, nodeId)).compose(x -> read(HELD, Tuple.of(nodeId)))
        .map(rows -> {
          Set<String> held = new LinkedHashSet<>();
          for (Row row : rows) {
            held.add(row.getString("run_id"));
          }
          return held;
        });
  }

  /**
   * Running runs another node may take over: their lease expired, or they have none, or {@code nodeId} held it in
   * an earlier life (a node restarted under the same id); oldest first, at most {@code limit}.
   */
  public Future<List<String>> takeable(String nodeId, long nowMs, int limit) {
    return read(TAKEABLE, Tuple.of(nowMs, nodeId, limit)).map(rows -> {
      List<String> ids = new ArrayList<>();
      for (Row row : rows) {
        ids.add(row.getString("run_id"));
      }
      return ids;
    });
  }

  /**
   * Claims a run whose lease expired (or is missing, or was this node's); one node wins. Completes with the lease
   * now held, or empty when another node was faster or the lease is valid.
   */
  public Future<Optional<Lease>> takeOver(String runId, String nodeId, long nowMs, long leaseMs) {
    long until = nowMs + leaseMs;
    return write(CLAIM_MISSING, Tuple.of(runId, nodeId, until, nowMs))
        .compose(ins -> ins.rowCount() == 1 ? Future.succeededFuture(1)
            : write(CLAIM_EXPIRED, Tuple.of(nodeId, until, nowMs, runId, nowMs, nodeId)).map(RowSet::rowCount))
        .compose(n -> n == 1 ? find(runId).map(l -> l.filter(x -> x.nodeId().equals(nodeId)))
            : Future.succeededFuture(Optional.empty()));
  }

  public Future<Optional<Lease>> find(String runId) {
    return read(READ, Tuple.of(runId)).map(rows -> {
      for (Row row : rows) {
        return Optional.of(new Lease(runId, row.getString("node_id"), row.getLong("expires_at"),
            row.getInteger("takeovers")));
      }
      return Optional.empty();
    });
  }

  /** Extends one lease if {@code nodeId} still holds it; completes with whether it does. */
  public Future<Boolean> confirm(String runId, String nodeId, long nowMs, long leaseMs) {
    return write(CONFIRM, Tuple.of(nowMs + leaseMs, nowMs, runId, nodeId)).map(rs -> rs.rowCount() == 1);
  }

  /**
   * Deletes leases expired before {@code beforeMs} whose run is not running (a node died after taking a run's lease
   * and before recording the run, or before dropping the lease of a run that ended); completes with how many.
   */
  public Future<Integer> sweep(long beforeMs) {
    return write(SWEEP, Tuple.of(beforeMs)).map(RowSet::rowCount);
  }

  /** Drops the lease of a run that ended, if {@code nodeId} still holds it; completes with whether it did. */
  public Future<Boolean> release(String runId, String nodeId) {
    return write(RELEASE, Tuple.of(runId, nodeId)).map(rs -> rs.rowCount() == 1);
  }

  private Future<RowSet<Row>> read(String statement, Tuple args) {
    return pool.preparedQuery(sql(statement)).execute(args);
  }

  private Future<RowSet<Row>> write(String statement, Tuple args) {
    if (db.dialect() == Database.Dialect.POSTGRES) {
      return pool.preparedQuery(sql(statement)).execute(args);
    }
    return db.inTransaction(conn -> conn.preparedQuery(statement).execute(args));
  }

  /** {@code ?} placeholders as PostgreSQL's {@code $n}. */
  private String sql(String statement) {
    if (db.dialect() != Database.Dialect.POSTGRES) {
      return statement;
    }
    return SqlParams.numbered(statement);
  }
}
