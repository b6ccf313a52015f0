package dev.argus.graph;

import dev.argus.store.SqlParams;
import dev.argus.graph.normalize.Names;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The logic both graph stores share: writes ({@link SqlGraphWrites}), reads (here and {@link SqlGraphEdges}, in front of
 * the {@link GraphCache}) and groups ({@link SqlGraphGroups}). Subclasses give the dialect: placeholders, bulk
 * inserts, JSON columns, GREATEST/LEAST, trigram search, the incident-edges statement. Schema:
 * {@code db/migration/<dialect>/V8__graph.sql} and V15_1 (keys of graph_sources), V15 on PostgreSQL.
 */
abstract class SqlGraphStore implements GraphStore {

  enum Type { TEXT, BIGINT, DOUBLE, JSON }

  record Insert(String table, List<String> columns, List<Type> types, String onConflict) {
  }

  static final String EDGE_COLS = "id, type, src, dst, weight, first_seen, last_seen";
  static final int IN_CHUNK = 500;

  final Database db;
  final GraphCache cache;
  final WrittenSpans spans;
  private final SqlGraphGroups groups = new SqlGraphGroups(this);
  private final SqlGraphEdges edges = new SqlGraphEdges(this);
  private final SqlGraphWrites writes;

  SqlGraphStore(Database db, int cacheNodes) {
    this.db = db;
    this.cache = new GraphCache(cacheNodes);
    this.spans = new WrittenSpans(2 * cacheNodes, 4 * cacheNodes);
    this.writes = new SqlGraphWrites(this);
  }

  // ---- dialect ---------------------------------------------------------------------------------------------------

  abstract SqlParams params();

  abstract String in(String column, SqlParams p, Collection<String> ids);

  abstract Future<Void> insertMany(SqlConnection conn, Insert insert, List<Object[]> rows);

  abstract JsonObject readJson(Row row, String column);

  /** {@code GREATEST}/{@code LEAST} (PostgreSQL) or the scalar {@code max}/{@code min} (SQLite). */
  abstract String greatest();

  abstract String least();

  /** Search candidates: rows of graph_nodes resembling {@code q} (lower case), at most {@code limit}. */
  abstract Future<List<Node>> searchCandidates(String q, String type, int limit);

  /** Nodes per incident-edges statement. */
  int incidentChunk() {
    return IN_CHUNK;
  }

  /**
   * One statement reading, for each of {@code ids}, its first {@code limit} edges at each end (weight descending, then
   * id) of weight at least {@code minWeight} and first seen by {@code asOfMs} (when set); columns {@code at_node},
   * {@code at_end} ({@code s} or {@code d}) and {@link #EDGE_COLS}. Its text does not depend on how many ids there are
   * (the ids are one parameter), so the statement is compiled once per shape, not once per frontier.
   */
  abstract String incidentSql(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs);

  /** One incident edge read for a node: the node, whether the node is its source, and the edge. */
  record Incident(String node, boolean atSource, Edge edge) {
  }

  /** Runs {@link #incidentSql}: one row per incident edge. */
  Future<List<Incident>> incident(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs) {
    return db.pool().preparedQuery(incidentSql(p, ids, limit, minWeight, asOfMs)).execute(p.tuple).map(rows -> {
      List<Incident> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(new Incident(r.getString("at_node"), "s".equals(r.getString("at_end")), SqlGraphEdges.edge(r, null, -1)));
      }
      return out;
    });
  }

  <T> Future<T> write(Supplier<Future<T>> action) {
    return action.get();
  }


  static String search(String id, String label) {
    String value = EntityIds.value(id).toLowerCase(Locale.ROOT);
    String name = Names.normalize(label);
    return name.equals(value) || name.isEmpty() ? value : name + " " + value;
  }

  /** Deletes the sources of these origins; returns their {@code item_kind, item_id, origin}. */
  Future<RowSet<Row>> takeSources(SqlConnection conn, List<String> origins) {
    SqlParams p = params();
    return conn.preparedQuery("SELECT item_kind, item_id, origin FROM graph_sources WHERE " + in("origin", p, origins))
        .execute(p.tuple).compose(rows -> {
          SqlParams d = params();
          return conn.preparedQuery("DELETE FROM graph_sources WHERE " + in("origin", d, origins)).execute(d.tuple)
              .map(rows);
        });
  }

  @Override
  public Future<Applied> apply(Facts facts) {
    return writes.apply(facts);
  }

  // ---- reads -----------------------------------------------------------------------------------------------------

  Node node(Row r, long degree) {
    return new Node(r.getString("id"), r.getString("type"), r.getString("label"), readJson(r, "attributes"),
        r.getDouble("risk"), r.getLong("first_seen"), r.getLong("last_seen"), degree);
  }

  /** The stored nodes among {@code ids} (no degree). */
  Future<List<Node>> nodeRows(SqlParams p, List<String> ids) {
    return db.pool().preparedQuery("SELECT * FROM graph_nodes WHERE " + in("id", p, ids)).execute(p.tuple)
        .map(rows -> {
          List<Node> out = new ArrayList<>(rows.size());
          rows.forEach(r -> out.add(node(r, -1)));
          return out;
        });
  }

  @Override
  public Future<Optional<Node>> node(String id) {
    SqlParams p = params();
    String a = p.add(id);
    String b = p.add(id);
    String c = p.add(id);
    return db.pool().preparedQuery("SELECT n.*, (SELECT COUNT(*) FROM graph_edges e WHERE e.src = " + a
            + ") + (SELECT COUNT(*) FROM graph_edges e WHERE e.dst = " + b + ") AS degree FROM graph_nodes n WHERE n.id = "
            + c).execute(p.tuple)
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(node(rows.iterator().next(),
            rows.iterator().next().getLong("degree"))));
  }

  @Override
  public Future<Map<String, Node>> nodes(Collection<String> ids) {
    Map<String, Node> found = new HashMap<>();
    List<String> missing = new ArrayList<>();
    Set<String> distinct = new LinkedHashSet<>(ids);
    for (String id : distinct) {
      Node n = cache.node(id);
      if (n == null) {
        missing.add(id);
      } else {
        found.put(id, n);
      }
    }
    long generation = cache.generation();
    List<Node> read = new ArrayList<>();
    return Chunks.forEach(missing, part -> {
      return nodeRows(params(), part).map(rows -> {
        read.addAll(rows);
        return null;
      });
    }).map(v -> {
      cache.putNodes(generation, read);
      read.forEach(n -> found.put(n.id(), n));
      Map<String, Node> out = new LinkedHashMap<>();
      for (String id : distinct) {
        Node n = found.get(id);
        if (n != null) {
          out.put(id, n);
        }
      }
      return out;
    });
  }

  @Override
  public Future<Map<String, Node>> nodes(Collection<String> ids, Long asOfMs) {
    if (asOfMs == null) {
      return nodes(ids);
    }
    Map<String, Node> out = new LinkedHashMap<>();
    return Chunks.forEach(List.copyOf(new LinkedHashSet<>(ids)), part -> {
      SqlParams p = params();
      // risk from the node's own sources dated by asOf only; last seen capped at asOf (not recomputed from sources)
      String sql = "SELECT n.id, n.type, n.label, n.attributes, COALESCE((SELECT MAX(s.risk) FROM graph_sources s "
          + "WHERE s.item_kind = 'n' AND s.item_id = n.id AND s.at <= " + p.add(asOfMs) + "), 0.0) AS risk, "
          + "n.first_seen, " + least() + "(n.last_seen, " + p.add(asOfMs) + ") AS last_seen FROM graph_nodes n WHERE "
          + in("n.id", p, part) + " AND n.first_seen <= " + p.add(asOfMs);
      return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
        rows.forEach(r -> out.put(r.getString("id"), node(r, -1)));
        return null;
      });
    }).map(out);
  }

  @Override
  public Future<Optional<Edge>> edge(String id, int maxProvenance) {
    return edges.get(id, maxProvenance);
  }

  @Override
  public Future<Map<String, List<Edge>>> incident(Collection<String> ids, int perNode, double minWeight, Long asOfMs) {
    return edges.incident(ids, perNode, minWeight, asOfMs);
  }

  @Override
  public Future<List<Node>> search(String query, String type, int limit) {
    String q = Names.normalize(query);
    String raw = query.strip().toLowerCase(Locale.ROOT);
    return searchCandidates(raw, type, Math.max(limit * 5, 50)).map(found -> {
      Map<Node, Double> score = new HashMap<>();
      for (Node n : found) {
        String s = search(n.id(), n.label());
        double sim = Math.max(Names.similarity(q, Names.normalize(s)), s.contains(raw) ? 0.5 + 0.5 * raw.length()
            / Math.max(1.0, s.length()) : 0);
        score.put(n, sim);
      }
      return found.stream().filter(n -> score.get(n) > 0.1)
          .sorted(Comparator.comparingDouble((Node n) -> -score.get(n)).thenComparing(Node::id))
          .limit(limit).toList();
    });
  }

  // ---- groups (SqlGraphGroups) -------------------------------------------------------------------------------------

  @Override
  public Future<List<Group>> groupsTouching(String kind, Collection<String> members) {
    return groups.touching(kind, members);
  }

  @Override
  public Future<Optional<Group>> group(String id) {
    return groups.get(id);
  }

  @Override
  public Future<Void> saveGroup(Group g) {
    return groups.save(g);
  }

  @Override
  public void forgetCached() {
    cache.clear();
    spans.clear();
  }

  @Override
  public Future<JsonObject> stats() {
    return db.pool().query("SELECT (SELECT COUNT(*) FROM graph_nodes) AS nodes, (SELECT COUNT(*) FROM graph_edges) "
            + "AS edges, (SELECT COUNT(*) FROM graph_sources) AS sources, (SELECT COUNT(*) FROM graph_groups) AS grp")
        .execute().map(rows -> {
          Row r = rows.iterator().next();
          return new JsonObject().put("nodes", r.getLong("nodes")).put("edges", r.getLong("edges"))
              .put("sources", r.getLong("sources")).put("groups", r.getLong("grp"));
        });
  }
}
