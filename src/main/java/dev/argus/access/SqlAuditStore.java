package dev.argus.access;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/** {@link AuditStore} over table {@code audit_log}: only INSERT and SELECT; the database refuses anything else. */
final class SqlAuditStore implements AuditStore {

  private final Database db;
  private final boolean postgres;

  SqlAuditStore(Database db) {
    this.db = db;
    this.postgres = db.dialect() == Database.Dialect.POSTGRES;
  }

  @Override
  public Future<Long> append(AuditEntry e) {
    Object detail = postgres ? e.detail() : e.detail().encode();
    Tuple args = Tuple.of(e.at(), e.actor(), e.role(), e.action(), e.target(), e.outcome(), detail);
    String columns = "(at, actor, role, action, target, outcome, detail)";
    if (postgres) {
      return db.pool().preparedQuery("INSERT INTO audit_log " + columns + " VALUES ($1, $2, $3, $4, $5, $6, $7)"
          + " RETURNING seq").execute(args).map(rows -> rows.iterator().next().getLong("seq"));
    }
    return db.inTransaction(conn -> conn.preparedQuery("INSERT INTO audit_log " + columns
            + " VALUES (?, ?, ?, ?, ?, ?, ?)").execute(args)
        .compose(v -> conn.query("SELECT last_insert_rowid() AS seq").execute())
        .map(rows -> rows.iterator().next().getLong("seq")));
  }

  @Override
  public Future<List<AuditEntry>> list(long before, int limit) {
    long bound = before <= 0 ? Long.MAX_VALUE : before;
    String sql = "SELECT seq, at, actor, role, action, target, outcome, detail FROM audit_log WHERE seq < "
        + (postgres ? "$1" : "?") + " ORDER BY seq DESC LIMIT " + (postgres ? "$2" : "?");
    return db.pool().preparedQuery(sql).execute(Tuple.of(bound, limit)).map(rows -> {
      List<AuditEntry> out = new ArrayList<>();
      for (Row r : rows) {
        Object d = r.getValue("detail");
        out.add(new AuditEntry(r.getLong("seq"), r.getLong("at"), r.getString("actor"), r.getString("role"),
            r.getString("action"), r.getString("target"), r.getInteger("outcome"),
            d instanceof JsonObject o ? o : new JsonObject(String.valueOf(d))));
      }
      return out;
    });
  }
}
