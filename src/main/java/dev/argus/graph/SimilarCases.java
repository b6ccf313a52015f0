package dev.argus.graph;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code similar_cases}: the cases near a seller in the graph. A case counts when it is within three hops (over edges
 * of weight at least 0.6): its subjects share identifiers with the seller, or a knowledge-base document (a case
 * summary, a policy) mentions the seller or one of its identifiers. Overlap = the shared identifiers, Jaccard as in
 * {@link Algorithms#jaccard}; items are the cases, closest first, with their outcome and the path to them.
 */
final class SimilarCases {

  private final GraphQueries queries;
  private final int fanout;
  private final int limit;

  SimilarCases(GraphQueries queries, int fanout, int limit) {
    this.queries = queries;
    this.fanout = fanout;
    this.limit = limit;
  }

  Future<JsonObject> find(String sellerId, Long asOf, int max) {
    return queries.neighbourhood(sellerId, new GraphQueries.Bounds(3, fanout, limit, GraphAnalysis.ALGORITHM_MIN_WEIGHT,
        asOf)).map(sub -> {
          if (!sub.nodes().containsKey(sellerId)) {
            throw GraphVerticle.notFound("entity", sellerId);
          }
          var g = Algorithms.graph(sub, GraphAnalysis.ALGORITHM_MIN_WEIGHT);
          var types = GraphAnalysis.types(sub);
          var bfs = new org.jgrapht.alg.shortestpath.BFSShortestPath<>(g);
          List<JsonObject> found = new ArrayList<>();
          int fraud = 0;
          for (GraphStore.Node n : sub.nodes().values()) {
            boolean isCase = Types.CASE.equals(n.type());
            boolean isDoc = Types.DOCUMENT.equals(n.type());
            if (!isCase && !isDoc) {
              continue;
            }
            Set<String> subjects = new HashSet<>();
            for (var e : g.edgesOf(n.id())) {
              String o = g.getEdgeSource(e).equals(n.id()) ? g.getEdgeTarget(e) : g.getEdgeSource(e);
              subjects.add(o);
            }
            double overlap = 0;
            for (String s : subjects) {
              overlap = Math.max(overlap, s.equals(sellerId) ? 1.0 : Algorithms.jaccard(g, types, sellerId, s));
            }
            var path = bfs.getPath(sellerId, n.id());
            List<String> nodes = path == null ? List.of(sellerId, n.id()) : path.getVertexList();
            String outcome = n.attributes().getString("outcome");
            fraud += "fraud".equals(outcome) ? 1 : 0;
            found.add(GraphAnalysis.entity(n).put("outcome", outcome).put("overlap", GraphAnalysis.round(overlap))
                .put("hops", nodes.size() - 1).put("nodes", new JsonArray(nodes))
                .put("relations", GraphAnalysis.relations(sub, nodes)));
          }
          found.sort(Comparator.comparingInt((JsonObject o) -> o.getInteger("hops"))
              .thenComparingDouble(o -> -o.getDouble("overlap")).thenComparing(o -> o.getString("id")));
          JsonArray items = new JsonArray();
          found.stream().limit(max).forEach(items::add);
          JsonObject signals = new JsonObject().put("nearbyCases", found.stream()
                  .filter(o -> Types.CASE.equals(o.getString("type"))).count())
              .put("nearbyFraudCases", fraud).put("truncated", sub.truncated() ? 1 : 0);
          return new JsonObject().put("sellerId", sellerId).put("items", items).put("signals", signals);
        });
  }
}
