package dev.argus.graph;

import dev.argus.graph.GraphStore.Edge;
import dev.argus.store.SqlParams;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Edge reads of a {@link SqlGraphStore}: one relation with its provenance, and the bounded incident edges of nodes. */
final class SqlGraphEdges {

  /**
   * Weight descending, then id: the store's order. Written out rather than composed from {@code Comparator}
   * combinators: a traversal sorts thousands of edges per call, and the composed form was among the hottest frames
   * of a 2-hop read in a JFR profile.
   */
  static final Comparator<Edge> STORED = (a, b) -> {
    int c = Double.compare(b.weight(), a.weight());
    return c != 0 ? c : a.id().compareTo(b.id());
  };

  /** Weight descending, then last seen descending, then id: the order incident edges are answered in. */
  static final Comparator<Edge> HEAVIEST_LATEST = (a, b) -> {
    int c = Double.compare(b.weight(), a.weight());
    if (c == 0) {
      c = Long.compare(b.lastSeen(), a.lastSeen());
    }
    return c != 0 ? c : a.id().compareTo(b.id());
  };

  private final SqlGraphStore store;

  SqlGraphEdges(SqlGraphStore store) {
    this.store = store;
  }

  static Edge edge(Row r, List<JsonObject> provenance, long sources) {
    return new Edge(r.getString("id"), r.getString("type"), r.getString("src"), r.getString("dst"),
        r.getDouble("weight"), r.getLong("first_seen"), r.getLong("last_seen"), provenance, sources);
  }

  Future<Optional<Edge>> get(String id, int maxProvenance) {
    SqlParams p = store.params();
    String ph = p.add(id);
    return store.db.pool().preparedQuery("SELECT " + SqlGraphStore.EDGE_COLS + " FROM graph_edges WHERE id = " + ph).execute(p.tuple)
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(Optional.empty());
          }
          Row r = rows.iterator().next();
          SqlParams q = store.params();
          String sql = "SELECT source_kind, source_id, at, (SELECT COUNT(*) FROM graph_sources c WHERE c.item_kind = 'e' "
              + "AND c.item_id = " + q.add(id) + ") AS total FROM graph_sources WHERE item_kind = 'e' AND item_id = "
              + q.add(id) + " ORDER BY at DESC, source_id LIMIT " + q.add(maxProvenance);
          return store.db.pool().preparedQuery(sql).execute(q.tuple).map(src -> {
            List<JsonObject> prov = new ArrayList<>();
            long total = 0;
            for (Row s : src) {
              prov.add(new JsonObject().put("kind", s.getString("source_kind")).put("id", s.getString("source_id"))
                  .put("at", Times.iso(s.getLong("at"))));
              total = s.getLong("total");
            }
            return Optional.of(edge(r, prov, total));
          });
        });
  }

  /**
   * The bounded incident edges of {@code ids} (see {@link GraphStore#incident}): from the {@link GraphCache} where its
   * prefix can answer, otherwise from the store, filling the cache with the missing nodes' prefixes on the way.
   */
  Future<Map<String, List<Edge>>> incident(Collection<String> ids, int perNode, double minWeight, Long asOfMs) {
    Map<String, List<Edge>> out = new LinkedHashMap<>();
    List<String> all = List.copyOf(new LinkedHashSet<>(ids));
    all.forEach(id -> out.put(id, new ArrayList<>()));
    int want = perNode + 1;
    GraphCache cache = store.cache;
    Future<List<String>> uncached;
    if (cache.enabled() && want <= GraphCache.MAX_PREFIX) {
      List<String> missing = new ArrayList<>();
      for (String id : all) {
        GraphCache.End[] ends = cache.adjacency(id);
        if (ends == null || !serve(ends, want, minWeight, asOfMs, out.get(id))) {
          missing.add(id);
        }
      }
      long generation = cache.generation();
      // the missing nodes' heaviest edges of any weight and time: what this asks is a filtered prefix of them
      uncached = ends(missing, want + 1, 0.0, null).map(read -> {
        List<String> unanswered = new ArrayList<>();
        for (String id : missing) {
          GraphCache.End[] ends = read.get(id);
          cache.putAdjacency(generation, id, ends[0], ends[1]);
          if (!serve(ends, want, minWeight, asOfMs, out.get(id))) {
            unanswered.add(id);
          }
        }
        return unanswered;
      });
    } else {
      uncached = Future.succeededFuture(all);
    }
    return uncached.compose(rest -> ends(rest, want + 1, minWeight, asOfMs).map(read -> {
      read.forEach((id, ends) -> {
        out.get(id).addAll(ends[0].edges());
        out.get(id).addAll(ends[1].edges());
      });
      return null;
    })).map(v -> {
      out.replaceAll((id, list) -> {
        list.sort(HEAVIEST_LATEST);
        return list.size() > want ? new ArrayList<>(list.subList(0, want)) : list;
      });
      return out;
    });
  }

  /** Adds the first {@code want} passing edges of each end to {@code into}; false when the cached prefix cannot tell. */
  private static boolean serve(GraphCache.End[] ends, int want, double minWeight, Long asOfMs, List<Edge> into) {
    List<Edge> src = ends[0].first(want, minWeight, asOfMs);
    List<Edge> dst = src == null ? null : ends[1].first(want, minWeight, asOfMs);
    if (src == null || dst == null) {
      return false;
    }
    into.addAll(src);
    into.addAll(dst);
    return true;
  }

  /**
   * For each of {@code ids}: its first {@code limit - 1} edges (weight descending, then id) at each end, {src, dst},
   * with weight at least {@code minWeight} and first seen by {@code asOfMs}; an end is complete when it had fewer
   * than {@code limit}.
   */
  private Future<Map<String, GraphCache.End[]>> ends(List<String> ids, int limit, double minWeight, Long asOfMs) {
    Map<String, List<Edge>[]> rows = new LinkedHashMap<>();
    for (String id : ids) {
      @SuppressWarnings("unchecked")
      List<Edge>[] pair = new List[] {new ArrayList<Edge>(), new ArrayList<Edge>()};
      rows.put(id, pair);
    }
    Future<Void> chain = Future.succeededFuture();
    for (List<String> part : Chunks.of(ids, store.incidentChunk())) {
      chain = chain.compose(v -> {
        return store.incident(store.params(), part, limit, minWeight, asOfMs).map(result -> {
          for (SqlGraphStore.Incident i : result) {
            rows.get(i.node())[i.atSource() ? 0 : 1].add(i.edge());
          }
          return null;
        });
      });
    }
    return chain.map(v -> {
      Map<String, GraphCache.End[]> out = new LinkedHashMap<>();
      rows.forEach((id, pair) -> {
        GraphCache.End[] ends = new GraphCache.End[2];
        for (int i = 0; i < 2; i++) {
          List<Edge> list = pair[i];
          list.sort(STORED);
          boolean complete = list.size() < limit;
          ends[i] = new GraphCache.End(List.copyOf(complete ? list : list.subList(0, limit - 1)), complete);
        }
        out.put(id, ends);
      });
      return out;
    });
  }
}
