package dev.argus.graph;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The graph in the embedded SQLite file (JSON as text). Writes are serialized in process and each bulk insert is one
 * prepared statement executed as a batch inside {@code BEGIN IMMEDIATE} ({@link Database#inTransaction}). Fuzzy
 * search scans the {@code search} column for any of the query's trigrams (no trigram index in SQLite; the graph's
 * search is an analyst's look-up, not a hot path) and ranks by trigram similarity in process.
 */
public final class SqliteGraphStore extends SqlGraphStore {

  /** {@link #EDGE_COLS} of the joined edge {@code e}. */
  private static final String E_COLS = java.util.Arrays.stream(EDGE_COLS.split(", ")).map(c -> "e." + c)
      .collect(Collectors.joining(", "));

  private final Object lock = new Object();
  private Future<?> tail = Future.succeededFuture();

  public SqliteGraphStore(Database db) {
    this(db, GraphStores.DEFAULT_CACHE_NODES);
  }

  /** With a {@link GraphCache} of at most {@code cacheNodes} nodes (0: none). */
  public SqliteGraphStore(Database db, int cacheNodes) {
    super(db, cacheNodes);
  }

  @Override
  SqlParams params() {
    return new SqlParams(false);
  }

  @Override
  String in(String column, SqlParams p, Collection<String> ids) {
    return column + " IN (SELECT value FROM json_each(" + p.add(new JsonArray(List.copyOf(ids)).encode()) + "))";
  }

  @Override
  Future<Void> insertMany(SqlConnection conn, Insert insert, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    String sql = "INSERT INTO " + insert.table() + " (" + String.join(", ", insert.columns()) + ") VALUES ("
        + insert.columns().stream().map(c -> "?").collect(Collectors.joining(", ")) + ") " + insert.onConflict();
    List<Tuple> batch = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      batch.add(Tuple.wrap(row));
    }
    return conn.preparedQuery(sql).executeBatch(batch).mapEmpty();
  }

  /**
   * The incident edges as one JSON text cell ({@code json_group_array}) instead of one row each: the JDBC client
   * decodes every cell of every row with a look-up of its declared type (a regular expression in sqlite-jdbc), which
   * cost more than SQLite's own reads — a 2-hop neighbourhood of 2,000 edges on the 1,000,000-transaction graph took
   * about 50 ms of CPU for 9 ms of SQLite.
   */
  /**
   * For each id of a {@code json_each} array, its end's first edges by a correlated {@code rowid IN (... LIMIT n)}
   * (SQLite has no LATERAL): two index range scans per node, as many nodes as the array holds, one fixed text.
   */
  @Override
  String incidentSql(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs) {
    String nodes = new JsonArray(List.copyOf(ids)).encode();
    StringBuilder sql = new StringBuilder();
    for (String end : new String[] {"src", "dst"}) {
      sql.append(end.equals("src") ? "" : " UNION ALL ").append("SELECT j.value AS at_node, '").append(end.charAt(0))
          .append("' AS at_end, ").append(E_COLS).append(" FROM json_each(").append(p.add(nodes))
          .append(") j JOIN graph_edges e ON e.rowid IN (SELECT rowid FROM graph_edges WHERE ").append(end)
          .append(" = j.value AND weight >= ").append(p.add(minWeight));
      if (asOfMs != null) {
        sql.append(" AND first_seen <= ").append(p.add(asOfMs));
      }
      sql.append(" ORDER BY weight DESC, id LIMIT ").append(p.add(limit)).append(")");
    }
    return sql.toString();
  }

  @Override
  Future<List<Incident>> incident(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs) {
    String sql = "SELECT json_group_array(json_array(at_node, at_end, " + EDGE_COLS + ")) AS edges FROM ("
        + incidentSql(p, ids, limit, minWeight, asOfMs) + ")";
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      JsonArray all = new JsonArray(rows.iterator().next().getString("edges"));
      List<Incident> out = new ArrayList<>(all.size());
      for (int i = 0; i < all.size(); i++) {
        JsonArray e = all.getJsonArray(i);
        out.add(new Incident(e.getString(0), "s".equals(e.getString(1)), new Edge(e.getString(2), e.getString(3),
            e.getString(4), e.getString(5), ((Number) e.getValue(6)).doubleValue(), e.getLong(7), e.getLong(8), null,
            -1)));
      }
      return out;
    });
  }

  /** The nodes as one JSON text cell, for the reason given at {@link #incident}. */
  @Override
  Future<List<Node>> nodeRows(SqlParams p, List<String> ids) {
    String sql = "SELECT json_group_array(json_array(id, type, label, json(attributes), risk, first_seen, last_seen)) "
        + "AS nodes FROM graph_nodes WHERE " + in("id", p, ids);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      JsonArray all = new JsonArray(rows.iterator().next().getString("nodes"));
      List<Node> out = new ArrayList<>(all.size());
      for (int i = 0; i < all.size(); i++) {
        JsonArray n = all.getJsonArray(i);
        out.add(new Node(n.getString(0), n.getString(1), n.getString(2), n.getJsonObject(3),
            ((Number) n.getValue(4)).doubleValue(), n.getLong(5), n.getLong(6), -1));
      }
      return out;
    });
  }

  @Override
  JsonObject readJson(Row row, String column) {
    return new JsonObject(row.getString(column));
  }

  @Override
  String greatest() {
    return "max";
  }

  @Override
  String least() {
    return "min";
  }

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    synchronized (lock) {
      Future<T> next = tail.transform(ignored -> action.get());
      tail = next;
      return next;
    }
  }

  @Override
  Future<List<Node>> searchCandidates(String q, String type, int limit) {
    Set<String> grams = new TreeSet<>();
    for (String w : q.split("\\s+")) {
      if (w.length() < 3) {
        if (!w.isEmpty()) {
          grams.add(w);
        }
        continue;
      }
      for (int i = 0; i + 3 <= w.length(); i++) {
        grams.add(w.substring(i, i + 3));
      }
    }
    if (grams.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    SqlParams p = params();
    String like = grams.stream().limit(24).map(g -> "search LIKE " + p.add("%" + g.replace("%", "").replace("_", "")
        + "%")).collect(Collectors.joining(" OR "));
    String sql = "SELECT * FROM graph_nodes WHERE (" + like + ")" + (type == null ? "" : " AND type = " + p.add(type))
        + " LIMIT " + p.add(limit);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      List<Node> out = new ArrayList<>();
      rows.forEach(r -> out.add(node(r, -1)));
      return out;
    });
  }
}
