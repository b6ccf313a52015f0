package dev.argus.graph;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultWeightedEdge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The graph tools' evidence: connections, risk propagation, rings, community with similarity, investigation. Each
 * answer is {@code {id, items: [...], signals: {name: value}}}; every item says its {@code kind} (signal, entity,
 * relation, path, ring, community) and carries a {@code cite} ({@code [entity:TYPE:ID]} or {@code [rel:ID]}) that
 * resolves through {@code argus.graph.entity.get} / {@code relation.get}. A signal that cannot be computed is reported
 * with {@code status: unknown} and its reason, never guessed.
 */
public final class GraphAnalysis {

  /** Edges weaker than this do not count for rings, communities and propagation (EMAIL_DOMAIN 0.5, IN_NETWORK 0.4). */
  public static final double ALGORITHM_MIN_WEIGHT = 0.6;

  private final GraphQueries queries;
  private final GroupTracker groups;
  private final int fanout;
  private final int limit;

  public GraphAnalysis(GraphStore store, int fanout, int limit) {
    this.queries = new GraphQueries(store);
    this.groups = new GroupTracker(store);
    this.fanout = fanout;
    this.limit = limit;
  }

  public GraphQueries queries() {
    return queries;
  }

  private Future<Subgraph> around(String id, int depth, double minWeight, Long asOf) {
    return queries.neighbourhood(id, new GraphQueries.Bounds(depth, fanout, limit, minWeight, asOf)).map(sub -> {
      if (!sub.nodes().containsKey(id)) {
        throw dev.argus.common.ApiException.notFound("not_found", "no entity '" + id + "'");
      }
      return sub;
    });
  }

  static Map<String, String> types(Subgraph sub) {
    Map<String, String> t = new HashMap<>();
    sub.nodes().forEach((id, n) -> t.put(id, n.type()));
    return t;
  }

  static JsonObject entity(GraphStore.Node n) {
    return new JsonObject().put("kind", "entity").put("id", n.id()).put("type", n.type()).put("label", n.label())
        .put("risk", n.risk()).put("cite", n.cite());
  }

  /** The edges along a node path (looked up in the subgraph), as relation items' cites. */
  static JsonArray relations(Subgraph sub, List<String> path) {
    JsonArray out = new JsonArray();
    for (int i = 0; i + 1 < path.size(); i++) {
      String a = path.get(i);
      String b = path.get(i + 1);
      sub.edges().stream().filter(e -> (e.from().equals(a) && e.to().equals(b)) || (e.from().equals(b) && e.to().equals(a)))
          .max(java.util.Comparator.comparingDouble(GraphStore.Edge::weight))
          .ifPresent(e -> out.add(new JsonObject().put("id", e.id()).put("type", e.type()).put("from", e.from())
              .put("to", e.to()).put("weight", e.weight()).put("cite", EntityIds.citeRelation(e.id()))));
    }
    return out;
  }

  // ---- graph_connections -------------------------------------------------------------------------------------------

  public Future<JsonObject> connections(String id, Long asOf) {
    return around(id, 2, 0.0, asOf).map(sub -> {
      JsonArray items = new JsonArray();
      Map<String, Integer> perSubject = new HashMap<>();
      int strong = 0;
      for (GraphStore.Edge e : sub.edges()) {
        String ident = e.from().equals(id) ? e.to() : e.to().equals(id) ? e.from() : null;
        if (ident == null || Types.isSubject(sub.nodes().get(ident).type())) {
          continue;
        }
        List<String> others = new ArrayList<>();
        for (GraphStore.Edge f : sub.edges()) {
          if (f == e || !(f.from().equals(ident) || f.to().equals(ident))) {
            continue;
          }
          String o = f.other(ident);
          if (!o.equals(id) && Types.isSubject(sub.nodes().get(o).type())) {
            others.add(o);
            perSubject.merge(o, 1, Integer::sum);
          }
        }
        if (others.isEmpty()) {
          continue;
        }
        if (e.weight() >= 0.9) {
          strong++;
        }
        GraphStore.Node n = sub.nodes().get(ident);
        items.add(entity(n).put("kind", "relation").put("relation", e.type()).put("weight", e.weight())
            .put("sharedWith", new JsonArray(others.stream().distinct().sorted().toList()))
            .put("identifier", n.id()).put("cite", EntityIds.citeRelation(e.id())).put("entityCite", n.cite()));
      }
      JsonObject signals = new JsonObject().put("sharedIdentifiers", items.size())
          .put("linkedSubjects", perSubject.size()).put("strongSharedIdentifiers", strong)
          .put("truncated", sub.truncated() ? 1 : 0);
      return new JsonObject().put("id", id).put("items", items).put("signals", signals);
    });
  }

  // ---- risk_propagation --------------------------------------------------------------------------------------------

  public Future<JsonObject> riskPropagation(String id, Long asOf) {
    return around(id, 3, ALGORITHM_MIN_WEIGHT, asOf).map(sub -> {
      Graph<String, DefaultWeightedEdge> g = Algorithms.graph(sub, ALGORITHM_MIN_WEIGHT);
      Map<String, Double> risk = new HashMap<>();
      sub.nodes().forEach((n, node) -> risk.put(n, node.risk()));
      List<Algorithms.Propagated> reached = Algorithms.propagate(g, risk, id);
      double own = sub.nodes().get(id).risk();
      double propagated = reached.isEmpty() ? 0 : reached.get(0).risk();
      JsonArray items = new JsonArray();
      items.add(new JsonObject().put("kind", "signal").put("name", "risk_score").put("value", round(Math.max(own, propagated)))
          .put("formula", "max(own, max over seeds of risk(seed) × Π(weight × " + Algorithms.DECAY + "))")
          .put("cite", sub.nodes().get(id).cite()));
      for (Algorithms.Propagated p : reached.subList(0, Math.min(10, reached.size()))) {
        GraphStore.Node seed = sub.nodes().get(p.seed());
        items.add(new JsonObject().put("kind", "path").put("seed", p.seed()).put("seedType", seed.type())
            .put("seedRisk", p.seedRisk()).put("risk", round(p.risk())).put("hops", p.path().size() - 1)
            .put("nodes", new JsonArray(p.path())).put("relations", relations(sub, p.path())).put("cite", seed.cite()));
      }
      JsonObject signals = new JsonObject().put("ownRisk", own).put("propagatedRisk", round(propagated))
          .put("riskScore", round(Math.max(own, propagated))).put("riskySeeds", reached.size())
          .put("truncated", sub.truncated() ? 1 : 0);
      return new JsonObject().put("id", id).put("items", items).put("signals", signals);
    });
  }

  // ---- find_rings --------------------------------------------------------------------------------------------------

  public Future<JsonObject> rings(String id, Long asOf, int maxLength) {
    return around(id, 3, ALGORITHM_MIN_WEIGHT, asOf).compose(sub -> {
      Graph<String, DefaultWeightedEdge> g = Algorithms.graph(sub, ALGORITHM_MIN_WEIGHT);
      List<Algorithms.Ring> rings = Algorithms.rings(g, types(sub), maxLength).stream()
          .filter(r -> r.cycle().contains(id) || r.subjects().contains(id)).limit(10).toList();
      List<Future<JsonObject>> tracked = new ArrayList<>();
      for (Algorithms.Ring r : rings) {
        double risk = r.cycle().stream().mapToDouble(n -> sub.nodes().get(n).risk()).max().orElse(0);
        long first = r.cycle().stream().mapToLong(n -> sub.nodes().get(n).firstSeen()).min().orElse(0);
        long last = r.cycle().stream().mapToLong(n -> sub.nodes().get(n).lastSeen()).max().orElse(0);
        List<String> closed = new ArrayList<>(r.cycle());
        closed.add(r.cycle().get(0));
        JsonArray rels = relations(sub, closed);
        tracked.add(groups.track("ring", r.subjects(), risk, first, last).map(grp -> new JsonObject()
            .put("kind", "ring").put("ringId", grp.id()).put("subjects", new JsonArray(List.copyOf(r.subjects())))
            .put("cycle", new JsonArray(r.cycle())).put("length", r.cycle().size()).put("risk", risk)
            .put("firstSeen", Times.iso(grp.firstSeen())).put("lastSeen", Times.iso(grp.lastSeen()))
            .put("relations", rels).put("cite", rels.isEmpty() ? sub.nodes().get(id).cite()
                : rels.getJsonObject(0).getString("cite"))));
      }
      return Future.all(tracked).map(all -> {
        JsonArray items = new JsonArray();
        all.<JsonObject>list().forEach(items::add);
        int maxSubjects = rings.stream().mapToInt(r -> r.subjects().size()).max().orElse(0);
        JsonObject signals = new JsonObject().put("rings", rings.size()).put("largestRingSubjects", maxSubjects)
            .put("truncated", sub.truncated() ? 1 : 0);
        return new JsonObject().put("id", id).put("items", items).put("signals", signals);
      });
    });
  }

  // ---- community ---------------------------------------------------------------------------------------------------

  public Future<JsonObject> community(String id, Long asOf) {
    return around(id, 3, ALGORITHM_MIN_WEIGHT, asOf).compose(sub -> {
      Graph<String, DefaultWeightedEdge> g = Algorithms.graph(sub, ALGORITHM_MIN_WEIGHT);
      Map<String, String> types = types(sub);
      Set<String> mine = Algorithms.communities(g).stream().filter(c -> c.contains(id)).findFirst().orElse(Set.of(id));
      List<String> subjects = mine.stream().filter(n -> Types.isSubject(types.get(n))).sorted().toList();
      double sum = 0;
      double max = 0;
      int risky = 0;
      for (String s : subjects) {
        double r = sub.nodes().get(s).risk();
        sum += r;
        max = Math.max(max, r);
        risky += r >= 0.5 ? 1 : 0;
      }
      double mean = subjects.isEmpty() ? 0 : sum / subjects.size();
      long first = mine.stream().mapToLong(n -> sub.nodes().get(n).firstSeen()).min().orElse(0);
      long last = mine.stream().mapToLong(n -> sub.nodes().get(n).lastSeen()).max().orElse(0);
      List<String> members = subjects.isEmpty() ? List.of(id) : subjects;
      double fMean = mean;
      double fMax = max;
      int fRisky = risky;
      return groups.track("community", members, max, first, last).map(grp -> {
        JsonArray items = new JsonArray();
        items.add(new JsonObject().put("kind", "community").put("communityId", grp.id()).put("size", mine.size())
            .put("subjects", new JsonArray(subjects.stream().limit(50).toList())).put("riskMean", round(fMean))
            .put("riskMax", fMax).put("riskySubjects", fRisky).put("firstSeen", Times.iso(grp.firstSeen()))
            .put("lastSeen", Times.iso(grp.lastSeen())).put("cite", sub.nodes().get(id).cite()));
        double maxJaccard = 0;
        List<JsonObject> similar = new ArrayList<>();
        for (String other : sub.nodes().keySet()) {
          if (other.equals(id) || !Types.isSubject(types.get(other))) {
            continue;
          }
          double j = Algorithms.jaccard(g, types, id, other);
          if (j > 0) {
            maxJaccard = Math.max(maxJaccard, j);
            similar.add(entity(sub.nodes().get(other)).put("jaccard", round(j)));
          }
        }
        similar.sort(java.util.Comparator.comparingDouble((JsonObject o) -> -o.getDouble("jaccard"))
            .thenComparing(o -> o.getString("id")));
        similar.stream().limit(10).forEach(items::add);
        double similarityDegree = similar.stream().mapToDouble(o -> o.getDouble("jaccard")).sum();
        JsonObject signals = new JsonObject().put("communitySize", mine.size()).put("communitySubjects", subjects.size())
            .put("communityRiskMean", round(fMean)).put("communityRiskMax", fMax).put("riskySubjects", fRisky)
            .put("maxJaccard", round(maxJaccard)).put("similarityDegree", round(similarityDegree))
            .put("truncated", sub.truncated() ? 1 : 0);
        return new JsonObject().put("id", id).put("communityId", grp.id()).put("items", items).put("signals", signals);
      });
    });
  }

  // ---- investigate -------------------------------------------------------------------------------------------------

  public Future<JsonObject> investigate(String id, int maxHops, double minWeight, Long asOf) {
    return around(id, maxHops, minWeight, asOf).map(sub -> {
      Graph<String, DefaultWeightedEdge> g = Algorithms.graph(sub, minWeight);
      org.jgrapht.alg.shortestpath.BFSShortestPath<String, DefaultWeightedEdge> bfs =
          new org.jgrapht.alg.shortestpath.BFSShortestPath<>(g);
      JsonArray hops = new JsonArray();
      JsonArray items = new JsonArray();
      JsonObject signals = new JsonObject();
      int riskyTotal = 0;
      for (int h = 1; h <= maxHops; h++) {
        int hop = h;
        List<GraphStore.Node> at = sub.nodes().values().stream().filter(n -> sub.hops().get(n.id()) == hop).toList();
        double maxRisk = at.stream().mapToDouble(GraphStore.Node::risk).max().orElse(0);
        List<GraphStore.Node> risky = at.stream().filter(n -> n.risk() > 0)
            .sorted(java.util.Comparator.comparingDouble((GraphStore.Node n) -> -n.risk()).thenComparing(GraphStore.Node::id))
            .toList();
        riskyTotal += risky.size();
        hops.add(new JsonObject().put("hop", hop).put("entities", at.size()).put("riskyEntities", risky.size())
            .put("maxRisk", maxRisk).put("subjects", at.stream().filter(n -> Types.isSubject(n.type())).count()));
        signals.put("hop" + hop + "MaxRisk", maxRisk).put("hop" + hop + "Entities", at.size());
        for (GraphStore.Node n : risky.subList(0, Math.min(5, risky.size()))) {
          var p = bfs.getPath(id, n.id());
          List<String> path = p == null ? List.of(id, n.id()) : p.getVertexList();
          items.add(entity(n).put("kind", "path").put("hop", hop).put("nodes", new JsonArray(path))
              .put("relations", relations(sub, path)));
        }
      }
      signals.put("riskyEntities", riskyTotal).put("entities", sub.nodes().size() - 1)
          .put("truncated", sub.truncated() ? 1 : 0);
      // the evidence chain: each risky entity's path as a sequence of cited relations
      JsonArray chain = new JsonArray();
      for (int i = 0; i < items.size(); i++) {
        JsonObject it = items.getJsonObject(i);
        StringBuilder sb = new StringBuilder(sub.nodes().get(id).cite());
        JsonArray rels = it.getJsonArray("relations");
        for (int r = 0; r < rels.size(); r++) {
          sb.append(" -").append(rels.getJsonObject(r).getString("type")).append(' ')
              .append(rels.getJsonObject(r).getString("cite")).append("-> ");
        }
        sb.append(it.getString("cite")).append(" (risk ").append(it.getDouble("risk")).append(')');
        chain.add(sb.toString());
      }
      return new JsonObject().put("entity", id).put("id", id).put("maxHops", maxHops).put("minWeight", minWeight)
          .put("hops", hops).put("items", items).put("signals", signals).put("evidenceChain", chain)
          .put("subject", entity(sub.nodes().get(id)));
    });
  }

  static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
