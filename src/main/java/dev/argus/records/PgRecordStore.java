package dev.argus.records;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Records in PostgreSQL (stored form as {@code jsonb}; watchlist names under a pg_trgm GIN index); schema
 * {@code db/migration/postgres/V7__records.sql}. A bulk insert is one statement per table and batch:
 * {@code INSERT ... SELECT FROM unnest($1::text[], ...)}, one array per column.
 */
public final class PgRecordStore extends SqlRecordStore {

  public PgRecordStore(Database db) {
    super(db);
  }

  @Override
  SqlParams params() {
    return new SqlParams(true);
  }

  @Override
  String in(String column, SqlParams p, List<String> ids) {
    return column + " = ANY(" + p.add(ids.toArray(new String[0])) + ")";
  }

  @Override
  Future<Void> insertMany(SqlConnection conn, Insert insert, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    List<String> columns = insert.columns();
    StringBuilder select = new StringBuilder("SELECT ");
    StringBuilder unnest = new StringBuilder(" FROM unnest(");
    Tuple args = Tuple.tuple();
    for (int c = 0; c < columns.size(); c++) {
      Type type = insert.types().get(c);
      select.append(c == 0 ? "" : ", ").append("u.").append(columns.get(c)).append(type == Type.JSON ? "::jsonb" : "");
      unnest.append(c == 0 ? "" : ", ").append('$').append(c + 1).append(type == Type.BIGINT ? "::bigint[]" : "::text[]");
      args.addValue(column(rows, c, type));
    }
    unnest.append(") AS u(").append(String.join(", ", columns)).append(')');
    String sql = "INSERT INTO " + insert.table() + " (" + String.join(", ", columns) + ") " + select + unnest + " "
        + insert.onConflict();
    return conn.preparedQuery(sql).execute(args).mapEmpty();
  }

  private static Object column(List<Object[]> rows, int c, Type type) {
    if (type == Type.BIGINT) {
      Long[] out = new Long[rows.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = ((Number) rows.get(i)[c]).longValue();
      }
      return out;
    }
    String[] out = new String[rows.size()];
    for (int i = 0; i < out.length; i++) {
      Object v = rows.get(i)[c];
      out[i] = v == null ? null : v.toString();
    }
    return out;
  }

  @Override
  String inIds(String column, String subquery) {
    return column + " = ANY(ARRAY(" + subquery + "))";
  }

  @Override
  String jsonText(String column, String field) {
    return column + "->>'" + field + "'";
  }

  @Override
  JsonObject readJson(Row row, String column) {
    Object v = row.getValue(column);
    return v instanceof JsonObject o ? o : new JsonObject(String.valueOf(v));
  }

  /** Candidates by pg_trgm's {@code %} (similarity at least {@code pg_trgm.similarity_threshold}, 0.3 by default). */
  @Override
  public Future<List<NameCandidate>> watchlistNames(String normalizedName, int limit) {
    String name = normalizedName.toLowerCase(Locale.ROOT);
    return db.pool().preparedQuery("SELECT record_id, name FROM watchlist_names WHERE name % $1 "
            + "ORDER BY similarity(name, $1) DESC, record_id LIMIT $2").execute(Tuple.of(name, limit))
        .map(rows -> {
          List<NameCandidate> out = new ArrayList<>();
          for (Row row : rows) {
            out.add(new NameCandidate(row.getString("record_id"), row.getString("name")));
          }
          return out;
        });
  }
}
