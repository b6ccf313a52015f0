package dev.argus.graph;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The graph in PostgreSQL ({@code jsonb} attributes, a pg_trgm GIN index on the search column). A bulk insert is one
 * statement per table and batch: {@code INSERT ... SELECT FROM unnest($1::text[], ...)}, one array per column.
 */
public final class PgGraphStore extends SqlGraphStore {

  public PgGraphStore(Database db) {
    this(db, GraphStores.DEFAULT_CACHE_NODES);
  }

  /** With a {@link GraphCache} of at most {@code cacheNodes} nodes (0: none). */
  public PgGraphStore(Database db, int cacheNodes) {
    super(db, cacheNodes);
  }

  @Override
  SqlParams params() {
    return new SqlParams(true);
  }

  @Override
  String in(String column, SqlParams p, Collection<String> ids) {
    return column + " = ANY(" + p.add(ids.toArray(new String[0])) + ")";
  }

  /** One statement: {@code DELETE ... RETURNING}. */
  @Override
  Future<RowSet<Row>> takeSources(SqlConnection conn, List<String> origins) {
    SqlParams p = params();
    return conn.preparedQuery("DELETE FROM graph_sources WHERE " + in("origin", p, origins)
        + " RETURNING item_kind, item_id, origin").execute(p.tuple);
  }

  /** One fixed-shape statement for any number of nodes: a LATERAL pair of index range scans per array element. */
  @Override
  String incidentSql(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs) {
    String nodes = p.add(ids.toArray(new String[0]));
    String w = p.add(minWeight);
    String n = p.add(limit);
    String asOf = asOfMs == null ? "" : " AND first_seen <= " + p.add(asOfMs);
    String end = " AND weight >= " + w + asOf + " ORDER BY weight DESC, id LIMIT " + n + ")";
    return "SELECT f.node AS at_node, e.* FROM unnest(" + nodes + "::text[]) AS f(node) CROSS JOIN LATERAL ("
        + "(SELECT CAST('s' AS TEXT) AS at_end, " + EDGE_COLS + " FROM graph_edges WHERE src = f.node" + end
        + " UNION ALL (SELECT CAST('d' AS TEXT) AS at_end, " + EDGE_COLS + " FROM graph_edges WHERE dst = f.node" + end
        + ") e";
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
      unnest.append(c == 0 ? "" : ", ").append('$').append(c + 1).append(switch (type) {
        case BIGINT -> "::bigint[]";
        case DOUBLE -> "::float8[]";
        default -> "::text[]";
      });
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
    if (type == Type.DOUBLE) {
      Double[] out = new Double[rows.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = ((Number) rows.get(i)[c]).doubleValue();
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
  JsonObject readJson(Row row, String column) {
    Object v = row.getValue(column);
    return v instanceof JsonObject o ? o : new JsonObject(String.valueOf(v));
  }

  @Override
  String greatest() {
    return "GREATEST";
  }

  @Override
  String least() {
    return "LEAST";
  }

  /** Candidates by pg_trgm similarity (the {@code %} operator, GIN-indexed) or substring. */
  @Override
  Future<List<Node>> searchCandidates(String q, String type, int limit) {
    SqlParams p = params();
    String a = p.add(q);
    String b = p.add("%" + q.replace("%", "").replace("_", "") + "%");
    String sql = "SELECT * FROM graph_nodes WHERE (search % " + a + " OR search LIKE " + b + ")"
        + (type == null ? "" : " AND type = " + p.add(type)) + " ORDER BY similarity(search, " + a + ") DESC LIMIT "
        + p.add(limit);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      List<Node> out = new ArrayList<>();
      rows.forEach(r -> out.add(node(r, -1)));
      return out;
    });
  }
}
