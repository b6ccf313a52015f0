package dev.argus.graph;

import dev.argus.graph.GraphStore.Applied;
import dev.argus.graph.SqlGraphStore.Insert;
import dev.argus.graph.SqlGraphStore.Type;
import dev.argus.store.SqlParams;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The writes of a {@link SqlGraphStore}: {@link #apply} merges a change's facts into node, edge and provenance rows,
 * removes the sources of the origins it replaces and recomputes what they touched, in one transaction; rows the stored
 * ones already cover ({@link WrittenSpans}) are not sent, and the {@link GraphCache} forgets what the commit touched.
 */
final class SqlGraphWrites {

  private final SqlGraphStore store;

  SqlGraphWrites(SqlGraphStore store) {
    this.store = store;
  }

  Insert nodeInsert(boolean primary) {
    String merge = "risk = " + store.greatest() + "(graph_nodes.risk, excluded.risk), first_seen = " + store.least()
        + "(graph_nodes.first_seen, excluded.first_seen), last_seen = " + store.greatest()
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
        "ON CONFLICT (id) DO UPDATE SET weight = " + store.greatest() + "(graph_edges.weight, excluded.weight), first_seen = "
            + store.least() + "(graph_edges.first_seen, excluded.first_seen), last_seen = " + store.greatest()
            + "(graph_edges.last_seen, excluded.last_seen) WHERE excluded.weight > graph_edges.weight "
            + "OR excluded.first_seen < graph_edges.first_seen OR excluded.last_seen > graph_edges.last_seen");
  }

  static final Insert SOURCES = new Insert("graph_sources", List.of("item_kind", "item_id", "source_id",
      "source_kind", "origin", "at", "weight", "risk"), List.of(Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT,
      Type.BIGINT, Type.DOUBLE, Type.DOUBLE), "ON CONFLICT (origin, item_kind, item_id, source_id) DO UPDATE SET "
      + "source_kind = excluded.source_kind, at = excluded.at, weight = excluded.weight, risk = excluded.risk");

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

  Future<Applied> apply(Facts facts) {
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
          f.source().kind(), f.source().origin(), f.source().at(), 0.0, f.risk()}, SqlGraphWrites::maxRisk);
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
    return store.write(() -> store.db.inTransaction(conn -> removeOrigins(conn, origins).compose(touched -> {
      removal[0] = touched;
      changed.addAll(touched.nodes());
      // rows whose sources went may shrink or go: never skipped; rows the stored ones already cover: not written
      store.spans.forget(touched.nodes(), touched.edges());
      List<Object[]> otherNew = otherRows.stream().filter(r -> !store.spans.nodeCovers((String) r[0], (Double) r[5],
          (Long) r[6], (Long) r[7])).toList();
      otherNew.forEach(SqlGraphWrites::searchColumn);
      primaryRows.forEach(SqlGraphWrites::searchColumn);
      List<Object[]> edgeNew = edgeRows.stream().filter(r -> !store.spans.edgeCovers((String) r[0], (Double) r[4],
          (Long) r[5], (Long) r[6])).toList();
      return store.insertMany(conn, nodeInsert(false), otherNew)
          .compose(v -> store.insertMany(conn, nodeInsert(true), primaryRows))
          .compose(v -> store.insertMany(conn, edgeInsert(), edgeNew))
          .compose(v -> store.insertMany(conn, SOURCES, sourceRows))
          .compose(v -> recompute(conn, touched, List.copyOf(touched.origins())))
          .map(removed -> new Applied(nodes.size(), edges.size(), removed[0], removed[1]));
    })).onComplete(done -> {
      store.cache.invalidate(changed);
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
          store.spans.nodeWritten((String) r[0], (Double) r[5], (Long) r[6], (Long) r[7]);
        }
      }
    }
    for (Object[] r : edgeRows) {
      if (!touched.edges().contains((String) r[0])) {
        store.spans.edgeWritten((String) r[0], (Double) r[4], (Long) r[5], (Long) r[6]);
      }
    }
  }

  private static void searchColumn(Object[] nodeRow) {
    if (nodeRow[3] == null) {
      nodeRow[3] = SqlGraphStore.search((String) nodeRow[0], (String) nodeRow[2]);
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


  /** What removing origins touched: edge ids and node ids to recompute. */
  private record Touched(Set<String> edges, Set<String> nodes, Set<String> origins) {
  }

  private Future<Touched> removeOrigins(SqlConnection conn, List<String> origins) {
    Touched touched = new Touched(new LinkedHashSet<>(), new LinkedHashSet<>(), new LinkedHashSet<>());
    if (origins.isEmpty()) {
      return Future.succeededFuture(touched);
    }
    Future<Void> chain = Future.succeededFuture();
    for (List<String> part : Chunks.of(origins, SqlGraphStore.IN_CHUNK)) {
      chain = chain.compose(v -> {
        return store.takeSources(conn, part).map(rows -> {
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
      SqlParams p = store.params();
      return conn.preparedQuery("SELECT src, dst FROM graph_edges WHERE " + store.in("id", p, part)).execute(p.tuple)
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


  /** Brings touched edges and nodes up to date from their remaining sources; returns {removed nodes, removed edges}. */
  private Future<long[]> recompute(SqlConnection conn, Touched touched, List<String> origins) {
    long[] removed = new long[2];
    String noEdgeSource = "NOT EXISTS (SELECT 1 FROM graph_sources s WHERE s.item_kind = 'e' AND s.item_id = graph_edges.id)";
    Future<Void> edges = Chunks.forEach(List.copyOf(touched.edges()), part -> {
      SqlParams d = store.params();
      return conn.preparedQuery("DELETE FROM graph_edges WHERE " + store.in("id", d, part) + " AND " + noEdgeSource)
          .execute(d.tuple).compose(rows -> {
            removed[1] += rows.rowCount();
            SqlParams u = store.params();
            String agg = "FROM graph_sources s WHERE s.item_kind = 'e' AND s.item_id = graph_edges.id";
            return conn.preparedQuery("UPDATE graph_edges SET weight = (SELECT MAX(s.weight) " + agg
                + "), first_seen = (SELECT MIN(s.at) " + agg + "), last_seen = (SELECT MAX(s.at) " + agg + ") WHERE "
                + store.in("id", u, part)).execute(u.tuple).mapEmpty();
          });
    });
    String own = "FROM graph_sources s WHERE s.item_kind = 'n' AND s.item_id = graph_nodes.id";
    long far = Long.MAX_VALUE / 4;
    String first = store.least() + "(COALESCE((SELECT MIN(s.at) " + own + "), " + far
        + "), COALESCE((SELECT MIN(e.first_seen) FROM graph_edges e WHERE e.src = graph_nodes.id), " + far
        + "), COALESCE((SELECT MIN(e.first_seen) FROM graph_edges e WHERE e.dst = graph_nodes.id), " + far + "))";
    String last = store.greatest() + "(COALESCE((SELECT MAX(s.at) " + own + "), " + -far
        + "), COALESCE((SELECT MAX(e.last_seen) FROM graph_edges e WHERE e.src = graph_nodes.id), " + -far
        + "), COALESCE((SELECT MAX(e.last_seen) FROM graph_edges e WHERE e.dst = graph_nodes.id), " + -far + "))";
    return edges.compose(v -> Chunks.forEach(List.copyOf(touched.nodes()), part -> {
      SqlParams d = store.params();
      return conn.preparedQuery("DELETE FROM graph_nodes WHERE " + store.in("id", d, part) + " AND NOT EXISTS (SELECT 1 "
              + own + ") AND NOT EXISTS (SELECT 1 FROM graph_edges e WHERE e.src = graph_nodes.id) AND NOT EXISTS "
              + "(SELECT 1 FROM graph_edges e WHERE e.dst = graph_nodes.id)").execute(d.tuple)
          .compose(rows -> {
            removed[0] += rows.rowCount();
            SqlParams u = store.params();
            return conn.preparedQuery("UPDATE graph_nodes SET risk = COALESCE((SELECT MAX(s.risk) " + own + "), 0), "
                + "first_seen = " + first + ", last_seen = " + last + " WHERE " + store.in("id", u, part)).execute(u.tuple)
                .mapEmpty();
          });
    })).compose(v -> Chunks.forEach(origins, part -> {
      // a record-backed node whose record is gone keeps its id as label and loses the record's attributes
      SqlParams u = store.params();
      return conn.preparedQuery("UPDATE graph_nodes SET label = id, search = LOWER(id), attributes = '{}' WHERE "
          + store.in("id", u, part) + " AND NOT EXISTS (SELECT 1 FROM graph_sources s WHERE s.item_kind = 'n' AND "
          + "s.item_id = graph_nodes.id AND s.source_id = graph_nodes.id)").execute(u.tuple).mapEmpty();
    })).map(removed);
  }
}
