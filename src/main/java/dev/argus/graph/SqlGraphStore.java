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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The logic both graph stores share: {@link #apply} (merge new facts, remove replaced origins, recompute what they
 * touched, in one transaction), reads and groups. Subclasses give the dialect: placeholders, bulk inserts, JSON
 * columns, GREATEST/LEAST, trigram search. Schema: {@code db/migration/<dialect>/V8__graph.sql}.
 */
abstract class SqlGraphStore implements GraphStore {

  enum Type { TEXT, BIGINT, DOUBLE, JSON }

  record Insert(String table, List<String> columns, List<Type> types, String onConflict) {
  }

  static final String EDGE_COLS = "id, type, src, dst, weight, first_seen, last_seen";
  static final int IN_CHUNK = 500;
  static final int INCIDENT_CHUNK = 64;

  final Database db;
  final GraphCache cache;
  private final WrittenSpans spans;
  private final SqlGraphGroups groups = new SqlGraphGroups(this);
  private final SqlGraphEdges edges = new SqlGraphEdges(this);

  SqlGraphStore(Database db, int cacheNodes) {
    this.db = db;
    this.cache = new GraphCache(cacheNodes);
    this.spans = new WrittenSpans(2 * cacheNodes, 4 * cacheNodes);
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
    return INCIDENT_CHUNK;
  }

  /**
   * One statement reading, for each of {@code ids}, its first {@code limit} edges at each end (weight descending, then
   * id) of weight at least {@code minWeight} and first seen by {@code asOfMs} (when set); columns {@code at_node},
   * {@code at_end} ({@code s} or {@code d}) and {@link #EDGE_COLS}. This one is a UNION ALL of two index range scans
   * per node.
   */
  String incidentSql(SqlParams p, List<String> ids, int limit, double minWeight, Long asOfMs) {
    StringBuilder sql = new StringBuilder();
    int q = 0;
    for (String id : ids) {
      for (String end : new String[] {"src", "dst"}) {
        sql.append(q == 0 ? "" : " UNION ALL ").append("SELECT * FROM (SELECT CAST(").append(p.add(id))
            .append(" AS TEXT) AS at_node, CAST('").append(end.charAt(0)).append("' AS TEXT) AS at_end, ")
            .append(EDGE_COLS).append(" FROM graph_edges WHERE ").append(end).append(" = ").append(p.add(id))
            .append(" AND weight >= ").append(p.add(minWeight));
        if (asOfMs != null) {
          sql.append(" AND first_seen <= ").append(p.add(asOfMs));
        }
        sql.append(" ORDER BY weight DESC, id LIMIT ").append(p.add(limit)).append(") q").append(q++);
      }
    }
    return sql.toString();
  }

  <T> Future<T> write(Supplier<Future<T>> action) {
    return action.get();
  }


  Insert nodeInsert(boolean primary) {
    String merge = "risk = " + greatest() + "(graph_nodes.risk, excluded.risk), first_seen = " + least()
        + "(graph_nodes.first_seen, excluded.first_seen), last_seen = " + greatest()
        + "(graph_nodes.last_seen, excluded.last_seen)";
    // a node that only gains an edge is rewritten only when its risk or time span grows (no dead row otherwise)
    String set = primary ? "type = excluded.type, label = excluded.label, search = excluded.search, "
        + "attributes = excluded.attributes, " + merge : merge + " WHERE excluded.risk > graph_nodes.risk "
        + "OR excluded.first_seen < graph_nodes.first_seen OR excluded.last_seen > graph_nodes.last_seen";
    return new Insert("graph_nodes", List.of("id", "type", "label", "search", "attributes", "risk", "first_seen",
        "last_seen"), List.of(Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.JSON, Type.DOUBLE, Type.BIGINT,
        Type.BIGINT), "ON CONFLICT (id) DO UPDATE SET " + set);
  }

  Insert edgeInsert() {
    return new Insert("graph_edges", List.of("id", "type", "src", "dst", "weight", "first_seen", "last_seen"),
        List.of(Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.DOUBLE, Type.BIGINT, Type.BIGINT),
        "ON CONFLICT (id) DO UPDATE SET weight = " + greatest() + "(graph_edges.weight, excluded.weight), first_seen = "
            + least() + "(graph_edges.first_seen, excluded.first_seen), last_seen = " + greatest()
            + "(graph_edges.last_seen, excluded.last_seen) WHERE excluded.weight > graph_edges.weight "
            + "OR excluded.first_seen < graph_edges.first_seen OR excluded.last_seen > graph_edges.last_seen");
  }

  static final Insert SOURCES = new Insert("graph_sources", List.of("item_kind", "item_id", "source_id",
      "source_kind", "origin", "at", "weight", "risk"), List.of(Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT,
      Type.BIGINT, Type.DOUBLE, Type.DOUBLE), "ON CONFLICT (item_kind, item_id, source_id) DO UPDATE SET "
      + "source_kind = excluded.source_kind, origin = excluded.origin, at = excluded.at, weight = excluded.weight, "
      + "risk = excluded.risk");

  // ---- apply -----------------------------------------------------------------------------------------------------

  /** A node row merged from every fact of one apply. */
  private static final class NodeRow {
    String type;
    String label;
    JsonObject attributes;
    boolean primary;
    double risk;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    void seen(long at) {
      first = Math.min(first, at);
      last = Math.max(last, at);
    }
  }

  private static final class EdgeRow {
    final Facts.EdgeFact fact;
    double weight;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    EdgeRow(Facts.EdgeFact fact) {
      this.fact = fact;
    }
  }

  @Override
  public Future<Applied> apply(Facts facts) {
    Map<String, NodeRow> nodes = new LinkedHashMap<>();
    Map<String, EdgeRow> edges = new LinkedHashMap<>();
    Map<String, Object[]> sources = new LinkedHashMap<>();
    for (Facts.NodeFact f : facts.nodes()) {
      NodeRow n = nodes.computeIfAbsent(f.id(), k -> new NodeRow());
      if (f.primary() || n.type == null) {
        n.type = f.type();
        n.label = f.label();
      }
      if (f.primary()) {
        n.primary = true;
        n.attributes = f.attributes();
      }
      n.risk = Math.max(n.risk, f.risk());
      n.seen(f.source().at());
      sources.merge("n|" + f.id() + "|" + f.source().id(), new Object[] {"n", f.id(), f.source().id(),
          f.source().kind(), f.source().origin(), f.source().at(), 0.0, f.risk()}, SqlGraphStore::maxRisk);
    }
    for (Facts.EdgeFact f : facts.edges()) {
      String id = f.id();
      EdgeRow e = edges.computeIfAbsent(id, k -> new EdgeRow(f));
      e.weight = Math.max(e.weight, f.weight());
      e.first = Math.min(e.first, f.source().at());
      e.last = Math.max(e.last, f.source().at());
      endpoint(nodes, f.from(), f.fromType(), f.source().at());
      endpoint(nodes, f.to(), f.toType(), f.source().at());
      sources.merge("e|" + id + "|" + f.source().id(), new Object[] {"e", id, f.source().id(), f.source().kind(),
          f.source().origin(), f.source().at(), f.weight(), 0.0}, (a, b) -> (double) a[6] >= (double) b[6] ? a : b);
    }
    List<Object[]> primaryRows = new ArrayList<>();
    List<Object[]> otherRows = new ArrayList<>();
    nodes.forEach((id, n) -> {
      String label = n.label == null ? EntityIds.value(id) : n.label;
      // the search column (a normalized name: regular expressions) is filled in for the rows actually written
      Object[] row = {id, n.type, label, null, (n.attributes == null ? new JsonObject() : n.attributes)
          .encode(), n.risk, n.first, n.last};
      (n.primary ? primaryRows : otherRows).add(row);
    });
    List<Object[]> edgeRows = new ArrayList<>();
    edges.forEach((id, e) -> edgeRows.add(new Object[] {id, e.fact.type(), e.fact.from(), e.fact.to(), e.weight,
        e.first, e.last}));
    List<Object[]> sourceRows = List.copyOf(sources.values());
    List<String> origins = List.copyOf(facts.origins());
    Set<String> changed = new HashSet<>(nodes.keySet());
    Touched[] removal = new Touched[1];
    return write(() -> db.inTransaction(conn -> removeOrigins(conn, origins).compose(touched -> {
      removal[0] = touched;
      changed.addAll(touched.nodes());
      // rows whose sources went may shrink or go: never skipped; rows the stored ones already cover: not written
      spans.forget(touched.nodes(), touched.edges());
      List<Object[]> otherNew = otherRows.stream().filter(r -> !spans.nodeCovers((String) r[0], (Double) r[5],
          (Long) r[6], (Long) r[7])).toList();
      otherNew.forEach(SqlGraphStore::searchColumn);
      primaryRows.forEach(SqlGraphStore::searchColumn);
      List<Object[]> edgeNew = edgeRows.stream().filter(r -> !spans.edgeCovers((String) r[0], (Double) r[4],
          (Long) r[5], (Long) r[6])).toList();
      return insertMany(conn, nodeInsert(false), otherNew)
          .compose(v -> insertMany(conn, nodeInsert(true), primaryRows))
          .compose(v -> insertMany(conn, edgeInsert(), edgeNew))
          .compose(v -> insertMany(conn, SOURCES, sourceRows))
          .compose(v -> recompute(conn, touched, List.copyOf(touched.origins())))
          .map(removed -> new Applied(nodes.size(), edges.size(), removed[0], removed[1]));
    })).onComplete(done -> {
      cache.invalidate(changed);
      if (done.succeeded()) {
        learn(otherRows, primaryRows, edgeRows, removal[0]);
      }
    }));
  }

  /** After a commit: the stored rows now cover what this apply merged (rows it recomputed are left unknown). */
  private void learn(List<Object[]> otherRows, List<Object[]> primaryRows, List<Object[]> edgeRows, Touched touched) {
    for (List<Object[]> rows : List.of(otherRows, primaryRows)) {
      for (Object[] r : rows) {
        if (!touched.nodes().contains((String) r[0])) {
          spans.nodeWritten((String) r[0], (Double) r[5], (Long) r[6], (Long) r[7]);
        }
      }
    }
    for (Object[] r : edgeRows) {
      if (!touched.edges().contains((String) r[0])) {
        spans.edgeWritten((String) r[0], (Double) r[4], (Long) r[5], (Long) r[6]);
      }
    }
  }

  private static void searchColumn(Object[] nodeRow) {
    if (nodeRow[3] == null) {
      nodeRow[3] = search((String) nodeRow[0], (String) nodeRow[2]);
    }
  }

  private static Object[] maxRisk(Object[] a, Object[] b) {
    return (double) a[7] >= (double) b[7] ? a : b;
  }

  private static void endpoint(Map<String, NodeRow> nodes, String id, String type, long at) {
    NodeRow n = nodes.computeIfAbsent(id, k -> new NodeRow());
    if (n.type == null) {
      n.type = type;
    }
    n.seen(at);
  }

  static String search(String id, String label) {
    String value = EntityIds.value(id).toLowerCase(Locale.ROOT);
    String name = Names.normalize(label);
    return name.equals(value) || name.isEmpty() ? value : name + " " + value;
  }

  /** What removing origins touched: edge ids and node ids to recompute. */
  private record Touched(Set<String> edges, Set<String> nodes, Set<String> origins) {
  }

  private Future<Touched> removeOrigins(SqlConnection conn, List<String> origins) {
    Touched touched = new Touched(new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>());
    if (origins.isEmpty()) {
      return Future.succeededFuture(touched);
    }
    Future<Void> chain = Future.succeededFuture();
    for (List<String> part : Chunks.of(origins, IN_CHUNK)) {
      chain = chain.compose(v -> {
        return takeSources(conn, part).map(rows -> {
          for (Row r : rows) {
            ("e".equals(r.getString(0)) ? touched.edges() : touched.nodes()).add(r.getString(1));
            touched.origins().add(r.getString(2));
          }
          return null;
        });
      });
    }
    // the endpoints of touched edges may lose their last edge; origins that are nodes may lose their primary source
    return chain.compose(v -> Chunks.forEach(List.copyOf(touched.edges()), part -> {
      SqlParams p = params();
      return conn.preparedQuery("SELECT src, dst FROM graph_edges WHERE " + in("id", p, part)).execute(p.tuple)
          .map(rows -> {
            for (Row r : rows) {
              touched.nodes().add(r.getString(0));
              touched.nodes().add(r.getString(1));
            }
            return null;
          });
    })).map(v -> {
      // only origins that had sources can lose anything (a first load touches nothing and recomputes nothing)
      touched.nodes().addAll(touched.origins());
      return touched;
    });
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

  /** Brings touched edges and nodes up to date from their remaining sources; returns {removed nodes, removed edges}. */
  private Future<long[]> recompute(SqlConnection conn, Touched touched, List<String> origins) {
    long[] removed = new long[2];
    String noEdgeSource = "NOT EXISTS (SELECT 1 FROM graph_sources s WHERE s.item_kind = 'e' AND s.item_id = graph_edges.id)";
    Future<Void> edges = Chunks.forEach(List.copyOf(touched.edges()), part -> {
      SqlParams d = params();
      return conn.preparedQuery("DELETE FROM graph_edges WHERE " + in("id", d, part) + " AND " + noEdgeSource)
          .execute(d.tuple).compose(rows -> {
            removed[1] += rows.rowCount();
            SqlParams u = params();
            String agg = "FROM graph_sources s WHERE s.item_kind = 'e' AND s.item_id = graph_edges.id";
            return conn.preparedQuery("UPDATE graph_edges SET weight = (SELECT MAX(s.weight) " + agg
                + "), first_seen = (SELECT MIN(s.at) " + agg + "), last_seen = (SELECT MAX(s.at) " + agg + ") WHERE "
                + in("id", u, part)).execute(u.tuple).mapEmpty();
          });
    });
    String own = "FROM graph_sources s WHERE s.item_kind = 'n' AND s.item_id = graph_nodes.id";
    long far = Long.MAX_VALUE / 4;
    String first = least() + "(COALESCE((SELECT MIN(s.at) " + own + "), " + far
        + "), COALESCE((SELECT MIN(e.first_seen) FROM graph_edges e WHERE e.src = graph_nodes.id), " + far
        + "), COALESCE((SELECT MIN(e.first_seen) FROM graph_edges e WHERE e.dst = graph_nodes.id), " + far + "))";
    String last = greatest() + "(COALESCE((SELECT MAX(s.at) " + own + "), " + -far
        + "), COALESCE((SELECT MAX(e.last_seen) FROM graph_edges e WHERE e.src = graph_nodes.id), " + -far
        + "), COALESCE((SELECT MAX(e.last_seen) FROM graph_edges e WHERE e.dst = graph_nodes.id), " + -far + "))";
    return edges.compose(v -> Chunks.forEach(List.copyOf(touched.nodes()), part -> {
      SqlParams d = params();
      return conn.preparedQuery("DELETE FROM graph_nodes WHERE " + in("id", d, part) + " AND NOT EXISTS (SELECT 1 "
              + own + ") AND NOT EXISTS (SELECT 1 FROM graph_edges e WHERE e.src = graph_nodes.id) AND NOT EXISTS "
              + "(SELECT 1 FROM graph_edges e WHERE e.dst = graph_nodes.id)").execute(d.tuple)
          .compose(rows -> {
            removed[0] += rows.rowCount();
            SqlParams u = params();
            return conn.preparedQuery("UPDATE graph_nodes SET risk = COALESCE((SELECT MAX(s.risk) " + own + "), 0), "
                + "first_seen = " + first + ", last_seen = " + last + " WHERE " + in("id", u, part)).execute(u.tuple)
                .mapEmpty();
          });
    })).compose(v -> Chunks.forEach(origins, part -> {
      // a record-backed node whose record is gone keeps its id as label and loses the record's attributes
      SqlParams u = params();
      return conn.preparedQuery("UPDATE graph_nodes SET label = id, search = LOWER(id), attributes = '{}' WHERE "
          + in("id", u, part) + " AND NOT EXISTS (SELECT 1 FROM graph_sources s WHERE s.item_kind = 'n' AND "
          + "s.item_id = graph_nodes.id AND s.source_id = graph_nodes.id)").execute(u.tuple).mapEmpty();
    })).map(removed);
  }

  // ---- reads -----------------------------------------------------------------------------------------------------

  Node node(Row r, long degree) {
    return new Node(r.getString("id"), r.getString("type"), r.getString("label"), readJson(r, "attributes"),
        r.getDouble("risk"), r.getLong("first_seen"), r.getLong("last_seen"), degree);
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
      SqlParams p = params();
      return db.pool().preparedQuery("SELECT * FROM graph_nodes WHERE " + in("id", p, part)).execute(p.tuple)
          .map(rows -> {
            rows.forEach(r -> read.add(node(r, -1)));
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
