package dev.argus.graph;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The algorithms on a hand-built subgraph:
 * <pre>
 *   S-1, S-2, S-3 each --1.0-- bank:a and --0.9-- device:a       (a K(3,2): every cycle has 4 edges)
 *   S-3 --0.7-- ip:x --0.7-- S-4;   S-4 --0.9-- phone:b --0.9-- S-5 (risk 1.0)
 * </pre>
 */
class AlgorithmsTest {

  static Subgraph world() {
    Map<String, GraphStore.Node> nodes = new LinkedHashMap<>();
    Map<String, Integer> hops = new LinkedHashMap<>();
    for (String s : List.of("S-1", "S-2", "S-3", "S-4", "S-5")) {
      nodes.put(s, new GraphStore.Node(s, Types.SELLER, s, new JsonObject(), s.equals("S-5") ? 1.0 : 0, 0, 0, -1));
    }
    for (String[] i : new String[][] {{"bank:a", Types.BANK_ACCOUNT}, {"device:a", Types.DEVICE}, {"ip:x", Types.IP},
        {"phone:b", Types.PHONE}}) {
      nodes.put(i[0], new GraphStore.Node(i[0], i[1], i[0], new JsonObject(), 0, 0, 0, -1));
    }
    nodes.keySet().forEach(n -> hops.put(n, 0));
    List<GraphStore.Edge> edges = new ArrayList<>();
    for (String s : List.of("S-1", "S-2", "S-3")) {
      edges.add(edge(s, "bank:a", 1.0));
      edges.add(edge(s, "device:a", 0.9));
    }
    edges.add(edge("S-3", "ip:x", 0.7));
    edges.add(edge("S-4", "ip:x", 0.7));
    edges.add(edge("S-4", "phone:b", 0.9));
    edges.add(edge("S-5", "phone:b", 0.9));
    return new Subgraph("S-1", nodes, hops, edges, false);
  }

  static GraphStore.Edge edge(String a, String b, double w) {
    return new GraphStore.Edge(EntityIds.edge("T", a, b), "T", a, b, w, 0, 0, null, -1);
  }

  @Test
  void componentsFollowTheWeightThreshold() {
    Subgraph sub = world();
    assertEquals(1, Algorithms.components(Algorithms.graph(sub, 0.6)).size());
    // at 0.8 the 0.7 bridge through ip:x is gone: {S-1,S-2,S-3,bank,device}, {S-4,S-5,phone}, {ip:x}
    List<Set<String>> c = Algorithms.components(Algorithms.graph(sub, 0.8));
    assertEquals(List.of(5, 3, 1), c.stream().map(Set::size).toList());
    assertEquals(Set.of("S-4", "S-5", "phone:b"), c.get(1));
  }

  @Test
  void ringsAreTheBasisCyclesThroughTwoSubjects() {
    Subgraph sub = world();
    // K(3,2) has 6 edges and 5 nodes: a cycle basis of 6 - 5 + 1 = 2 cycles, each of 4 edges through 2 sellers
    List<Algorithms.Ring> rings = Algorithms.rings(Algorithms.graph(sub, 0.6), GraphAnalysis.types(sub), 8);
    assertEquals(2, rings.size());
    for (Algorithms.Ring r : rings) {
      assertEquals(4, r.cycle().size());
      assertEquals(2, r.subjects().size());
      assertTrue(r.cycle().contains("bank:a") && r.cycle().contains("device:a"));
    }
    assertTrue(Algorithms.rings(Algorithms.graph(sub, 0.6), GraphAnalysis.types(sub), 3).isEmpty(), "too long");
  }

  @Test
  void communitiesStayInsideComponents() {
    Subgraph sub = world();
    List<Set<String>> communities = Algorithms.communities(Algorithms.graph(sub, 0.8));
    Set<String> withS4 = communities.stream().filter(c -> c.contains("S-4")).findFirst().orElseThrow();
    assertTrue(withS4.contains("S-5"), "S-4 and S-5 share only phone:b: " + communities);
    Set<String> withS1 = communities.stream().filter(c -> c.contains("S-1")).findFirst().orElseThrow();
    assertTrue(Set.of("S-1", "S-2", "S-3", "bank:a", "device:a").containsAll(withS1), communities.toString());
    assertEquals(communities, Algorithms.communities(Algorithms.graph(sub, 0.8)), "seeded: the same every time");
  }

  @Test
  void jaccardOverSharedIdentifiers() {
    Subgraph sub = world();
    var g = Algorithms.graph(sub, 0.6);
    Map<String, String> types = GraphAnalysis.types(sub);
    // N(S-1) = N(S-2) = {bank:a, device:a}: 2 / 2 = 1.0
    assertEquals(1.0, Algorithms.jaccard(g, types, "S-1", "S-2"));
    // N(S-3) = {bank:a, device:a, ip:x}, N(S-4) = {ip:x, phone:b}: 1 / 4 = 0.25
    assertEquals(0.25, Algorithms.jaccard(g, types, "S-3", "S-4"));
  }

  @Test
  void riskPropagationIsTheBestProductOfWeightAndDecay() {
    Subgraph sub = world();
    Map<String, Double> risk = new LinkedHashMap<>();
    sub.nodes().forEach((id, n) -> risk.put(id, n.risk()));
    List<Algorithms.Propagated> p = Algorithms.propagate(Algorithms.graph(sub, 0.6), risk, "S-1");
    assertEquals(1, p.size());
    // S-1 -bank 1.0- S-3 -0.7- ip:x -0.7- S-4 -0.9- phone:b -0.9- S-5, each hop x 0.5:
    // (1.0 x 1.0 x 0.7 x 0.7 x 0.9 x 0.9) x 0.5^6 = 0.3969 / 64 = 0.0062015625 (via device:a, 0.9 x 0.9, is less)
    assertEquals(0.0062015625, p.get(0).risk(), 1e-12);
    assertEquals(List.of("S-1", "bank:a", "S-3", "ip:x", "S-4", "phone:b", "S-5"), p.get(0).path());
    // S-4: phone 0.9 x 0.5, then 0.9 x 0.5: 0.2025
    assertEquals(0.2025, Algorithms.propagate(Algorithms.graph(sub, 0.6), risk, "S-4").get(0).risk(), 1e-12);
  }
}
