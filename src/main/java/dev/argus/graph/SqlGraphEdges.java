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

  Future<Map<String, List<Edge>>> incident(Collection<String> ids, int perNode, double minWeight, Long asOfMs) {
    Map<String, List<Edge>> out = new LinkedHashMap<>();
    List<String> all = List.copyOf(new LinkedHashSet<>(ids));
    all.forEach(id -> out.put(id, new ArrayList<>()));
    Future<Void> chain = Future.succeededFuture();
    for (List<String> part : Chunks.of(all, SqlGraphStore.INCIDENT_CHUNK)) {
      chain = chain.compose(v -> {
        SqlParams p = store.params();
        StringBuilder sql = new StringBuilder();
        int q = 0;
        for (String id : part) {
          for (String end : new String[] {"src", "dst"}) {
            sql.append(q == 0 ? "" : " UNION ALL ").append("SELECT * FROM (SELECT CAST(").append(p.add(id))
                .append(" AS TEXT) AS at_node, ").append(SqlGraphStore.EDGE_COLS).append(" FROM graph_edges WHERE ").append(end).append(" = ")
                .append(p.add(id)).append(" AND weight >= ").append(p.add(minWeight));
            if (asOfMs != null) {
              sql.append(" AND first_seen <= ").append(p.add(asOfMs));
            }
            sql.append(" ORDER BY weight DESC, id LIMIT ").append(p.add(perNode + 1)).append(") q").append(q++);
          }
        }
        return store.db.pool().preparedQuery(sql.toString()).execute(p.tuple).map(rows -> {
          for (Row r : rows) {
            out.get(r.getString("at_node")).add(edge(r, null, -1));
          }
          return null;
        });
      });
    }
    Comparator<Edge> order = Comparator.comparingDouble(Edge::weight).reversed()
        .thenComparing(Comparator.comparingLong(Edge::lastSeen).reversed()).thenComparing(Edge::id);
    return chain.map(v -> {
      out.replaceAll((id, list) -> {
        list.sort(order);
        return list.size() > perNode + 1 ? new ArrayList<>(list.subList(0, perNode + 1)) : list;
      });
      return out;
    });
  }
}
