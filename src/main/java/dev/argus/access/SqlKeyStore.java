package dev.argus.access;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link KeyStore} over table {@code api_keys}: SQLite keeps the namespaces as JSON text, PostgreSQL as jsonb. */
final class SqlKeyStore implements KeyStore {

  private static final String COLUMNS = "id, secret_hash, role, namespaces, rate_limit, label, created_at, created_by,"
      + " revoked_at";

  private final Database db;
  private final boolean postgres;

  SqlKeyStore(Database db) {
    this.db = db;
    this.postgres = db.dialect() == Database.Dialect.POSTGRES;
  }

  private String sql(String withQuestionMarks) {
    if (!postgres) {
      return withQuestionMarks;
    }
    return SqlParams.numbered(withQuestionMarks);
  }

  @Override
  public Future<Void> insert(ApiKey key, String secretHash) {
    JsonArray ns = key.namespaces() == null ? null : new JsonArray(key.namespaces());
    Object nsValue = ns == null ? null : postgres ? ns : ns.encode();
    Tuple args = Tuple.tuple().addString(key.id()).addString(secretHash).addString(key.role().wireName())
        .addValue(nsValue).addValue(key.rateLimit()).addString(key.label()).addLong(key.createdAt())
        .addString(key.createdBy()).addValue(key.revokedAt());
    return db.inTransaction(conn -> conn.preparedQuery(sql("INSERT INTO api_keys (" + COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")).execute(args)).mapEmpty();
  }

  @Override
  public Future<List<ApiKey>> list() {
    return db.pool().query("SELECT " + COLUMNS + " FROM api_keys ORDER BY created_at DESC, id").execute()
        .map(rows -> read(rows).stream().map(Stored::key).toList());
  }

  @Override
  public Future<List<Stored>> active() {
    return db.pool().query("SELECT " + COLUMNS + " FROM api_keys WHERE revoked_at IS NULL").execute()
        .map(SqlKeyStore::read);
  }

  @Override
  public Future<Optional<ApiKey>> find(String id) {
    return db.pool().preparedQuery(sql("SELECT " + COLUMNS + " FROM api_keys WHERE id = ?")).execute(Tuple.of(id))
        .map(rows -> read(rows).stream().map(Stored::key).findFirst());
  }

  @Override
  public Future<Boolean> revoke(String id, long at) {
    return db.inTransaction(conn -> conn.preparedQuery(
            sql("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")).execute(Tuple.of(at, id)))
        .map(rows -> rows.rowCount() == 1);
  }

  @Override
  public Future<Integer> countActive() {
    return db.pool().query("SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL").execute()
        .map(rows -> rows.iterator().next().getNumeric("n").intValue());
  }

  private static List<Stored> read(RowSet<Row> rows) {
    List<Stored> out = new ArrayList<>();
    for (Row r : rows) {
      Object ns = r.getValue("namespaces");
      List<String> namespaces = null;
      if (ns != null) {
        JsonArray a = ns instanceof JsonArray arr ? arr : new JsonArray(String.valueOf(ns));
        namespaces = a.stream().map(String::valueOf).toList();
      }
      Number rate = (Number) r.getValue("rate_limit");
      Number revoked = (Number) r.getValue("revoked_at");
      ApiKey key = new ApiKey(r.getString("id"), Role.parse(r.getString("role")), namespaces,
          rate == null ? null : rate.intValue(), r.getString("label"), ((Number) r.getValue("created_at")).longValue(),
          r.getString("created_by"), revoked == null ? null : revoked.longValue());
      out.add(new Stored(key, r.getString("secret_hash")));
    }
    return out;
  }
}
