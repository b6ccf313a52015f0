package dev.argus.graph;

import dev.argus.graph.GraphStore.Edge;
import dev.argus.graph.GraphStore.LastHop;
import dev.argus.graph.GraphStore.Node;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link GraphStore#lastHop} in PostgreSQL: one statement. For each frontier node (a LATERAL pair of index range scans,
 * as {@link PgGraphStore#incidentSql}) it ranks the node's edges as {@link GraphStore#incident} does and keeps the
 * first {@code fanout}; the nodes the level adds are the first {@code room} other ends not known, in (frontier node,
 * rank) order; it returns only the kept edges ({@code e} rows), a truncation mark ({@code t}) and the rows of the
 * added nodes and of the known ones the {@link GraphCache} lacks ({@code n}). A 2-hop neighbourhood of a seller reads
 * about 2,000 edges at its last level to keep a few hundred: the rest stay in the server, and the node rows come in
 * the same round trip.
 */
final class PgLastHop {

  private static final String SQL = "WITH f AS (SELECT node, ord FROM unnest($1::text[]) WITH ORDINALITY AS f(node, ord)), "
      + "e AS (SELECT f.ord, f.node AS at_node, x.*, row_number() OVER (PARTITION BY f.ord ORDER BY x.weight DESC, "
      + "x.last_seen DESC, x.id COLLATE \"C\") AS rk FROM f CROSS JOIN LATERAL ("
      + "(SELECT CAST('s' AS TEXT) AS at_end, " + SqlGraphStore.EDGE_COLS + " FROM graph_edges WHERE src = f.node "
      + "AND weight >= $4 ORDER BY weight DESC, id LIMIT $5) UNION ALL (SELECT CAST('d' AS TEXT) AS at_end, "
      + SqlGraphStore.EDGE_COLS + " FROM graph_edges WHERE dst = f.node AND weight >= $4 ORDER BY weight DESC, id "
      + "LIMIT $5)) x), "
      + "c AS (SELECT e.*, CASE WHEN e.at_end = 's' THEN e.dst ELSE e.src END AS other, e.ord * 1000000 + e.rk AS pos "
      + "FROM e WHERE e.rk <= $6), "
      + "k AS (SELECT DISTINCT unnest($2::text[]) AS id), "
      + "fresh AS (SELECT c.other, MIN(c.pos) AS pos FROM c WHERE NOT EXISTS (SELECT 1 FROM k WHERE k.id = c.other) "
      + "GROUP BY c.other), "
      + "added AS (SELECT other FROM fresh ORDER BY pos LIMIT $7) "
      + "SELECT CAST('e' AS TEXT) AS row_kind, c.at_node, c.id, c.type, c.src, c.dst, c.weight, c.first_seen, "
      + "c.last_seen, CAST(NULL AS TEXT) AS label, CAST(NULL AS JSONB) AS attributes, CAST(NULL AS FLOAT8) AS risk "
      + "FROM c WHERE EXISTS (SELECT 1 FROM k WHERE k.id = c.other) OR EXISTS (SELECT 1 FROM added a WHERE "
      + "a.other = c.other) "
      + "UNION ALL SELECT 't', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE EXISTS (SELECT 1 "
      + "FROM e WHERE e.rk > $6) OR (SELECT COUNT(*) FROM fresh) > $7 "
      + "UNION ALL SELECT 'n', NULL, n.id, n.type, NULL, NULL, NULL, n.first_seen, n.last_seen, n.label, n.attributes, "
      + "n.risk FROM graph_nodes n WHERE n.id = ANY(ARRAY(SELECT other FROM added) || $3::text[])";

  /** The order of {@link GraphStore#incident}: weight descending, then latest, then id. */
  private static final Comparator<Edge> ORDER = Comparator.comparingDouble(Edge::weight).reversed()
      .thenComparing(Comparator.comparingLong(Edge::lastSeen).reversed()).thenComparing(Edge::id);

  private final PgGraphStore store;

  PgLastHop(PgGraphStore store) {
    this.store = store;
  }

  Future<LastHop> read(List<String> frontier, Collection<String> known, int fanout, int room, double minWeight) {
    GraphCache cache = store.cache;
    if (frontier.isEmpty() || fanout + 1 > GraphCache.MAX_PREFIX
        || cache.enabled() && frontier.stream().allMatch(cache::hasAdjacency)) {
      return Future.succeededFuture(null); // nothing to save: the cached edges answer without a round trip
    }
    Map<String, Node> nodes = new HashMap<>();
    List<String> need = new ArrayList<>();
    for (String id : known) {
      Node n = cache.node(id);
      if (n == null) {
        need.add(id);
      } else {
        nodes.put(id, n);
      }
    }
    long generation = cache.generation();
    Tuple args = Tuple.of(frontier.toArray(new String[0]), known.toArray(new String[0]), need.toArray(new String[0]),
        minWeight, fanout + 1, fanout, room);
    return store.db.pool().preparedQuery(SQL).execute(args).map(rows -> {
      Map<String, List<Edge>> edges = new LinkedHashMap<>();
      frontier.forEach(id -> edges.put(id, new ArrayList<>()));
      boolean truncated = false;
      List<Node> read = new ArrayList<>();
      for (Row r : rows) {
        switch (r.getString("row_kind")) {
          case "e" -> edges.get(r.getString("at_node")).add(SqlGraphEdges.edge(r, null, -1));
          case "n" -> read.add(store.node(r, -1));
          default -> truncated = true;
        }
      }
      edges.values().forEach(list -> list.sort(ORDER));
      cache.putNodes(generation, read);
      read.forEach(n -> nodes.put(n.id(), n));
      return new LastHop(edges, truncated, nodes);
    });
  }
}
