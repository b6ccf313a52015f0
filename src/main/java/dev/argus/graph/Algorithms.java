package dev.argus.graph;

import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.clustering.LabelPropagationClustering;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.alg.cycle.PatonCycleBase;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Graph algorithms on a bounded {@link Subgraph}, with JGraphT: connected components, rings (bounded cycles of the
 * cycle basis that pass through at least two subjects), communities (label propagation, seeded so that one subgraph
 * always gives one answer), Jaccard similarity over shared identifiers, and risk propagation. Pure functions.
 *
 * <p>Risk propagation: the risk that reaches node v from a known-bad seed s is
 * {@code risk(s) × Π over the path's edges of (weight(e) × DECAY)}, DECAY = 0.5 per hop, maximized over paths (a
 * max-product shortest path); v's propagated risk is the largest over seeds other than v, and its score is
 * {@code max(own risk, propagated risk)}. Example: seller A shares a payout account (weight 1.0) with seller B whose
 * case was fraud (risk 1.0): A—bank—B is two hops, so A receives 1.0 × (1.0 × 0.5) × (1.0 × 0.5) = 0.25.
 */
public final class Algorithms {

  public static final double DECAY = 0.5;

  private Algorithms() {
  }

  /** The undirected simple graph of a subgraph's edges of weight at least {@code minWeight} (parallel edges: max weight). */
  public static Graph<String, DefaultWeightedEdge> graph(Subgraph sub, double minWeight) {
    Graph<String, DefaultWeightedEdge> g = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
    sub.nodes().keySet().forEach(g::addVertex);
    for (GraphStore.Edge e : sub.edges()) {
      if (e.weight() < minWeight || !g.containsVertex(e.from()) || !g.containsVertex(e.to())) {
        continue;
      }
      DefaultWeightedEdge existing = g.getEdge(e.from(), e.to());
      if (existing == null) {
        g.setEdgeWeight(g.addEdge(e.from(), e.to()), e.weight());
      } else if (g.getEdgeWeight(existing) < e.weight()) {
        g.setEdgeWeight(existing, e.weight());
      }
    }
    return g;
  }

  /** Connected components, largest first (ties by smallest member). */
  public static List<Set<String>> components(Graph<String, DefaultWeightedEdge> g) {
    List<Set<String>> out = new ArrayList<>();
    for (Set<String> c : new ConnectivityInspector<>(g).connectedSets()) {
      out.add(new TreeSet<>(c));
    }
    out.sort(Comparator.comparingInt((Set<String> s) -> -s.size()).thenComparing(s -> s.iterator().next()));
    return out;
  }

  /** A ring: the nodes of one cycle in order, and its subjects (sellers, buyers) sorted. */
  public record Ring(List<String> cycle, Set<String> subjects) {
  }

  /**
   * Rings: the cycles of a cycle basis (Paton) of at most {@code maxLength} edges through at least two subjects;
   * cycles with the same subjects count once (the shorter). Sorted by length, then subjects.
   */
  public static List<Ring> rings(Graph<String, DefaultWeightedEdge> g, Map<String, String> types, int maxLength) {
    Map<Set<String>, Ring> bySubjects = new LinkedHashMap<>();
    for (GraphPath<String, DefaultWeightedEdge> p : new PatonCycleBase<>(g).getCycleBasis().getCyclesAsGraphPaths()) {
      if (p.getLength() > maxLength) {
        continue;
      }
      List<String> cycle = new ArrayList<>(p.getVertexList());
      if (cycle.size() > 1 && cycle.get(0).equals(cycle.get(cycle.size() - 1))) {
        cycle.remove(cycle.size() - 1);
      }
      Set<String> subjects = new TreeSet<>();
      cycle.stream().filter(v -> Types.isSubject(types.get(v))).forEach(subjects::add);
      if (subjects.size() < 2) {
        continue;
      }
      Ring r = new Ring(rotate(cycle), subjects);
      Ring prior = bySubjects.get(subjects);
      if (prior == null || prior.cycle().size() > r.cycle().size()) {
        bySubjects.put(subjects, r);
      }
    }
    List<Ring> out = new ArrayList<>(bySubjects.values());
    out.sort(Comparator.comparingInt((Ring r) -> r.cycle().size()).thenComparing(r -> String.join(",", r.subjects())));
    return out;
  }

  /** The cycle started at its smallest node, in the direction of the smaller neighbour (one text per cycle). */
  private static List<String> rotate(List<String> cycle) {
    int n = cycle.size();
    int min = 0;
    for (int i = 1; i < n; i++) {
      if (cycle.get(i).compareTo(cycle.get(min)) < 0) {
        min = i;
      }
    }
    boolean forward = cycle.get((min + 1) % n).compareTo(cycle.get((min - 1 + n) % n)) <= 0;
    List<String> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(cycle.get(forward ? (min + k) % n : (min - k + n) % n));
    }
    return out;
  }

  /** Communities by label propagation (JGraphT, fixed seed), as sorted sets. */
  public static List<Set<String>> communities(Graph<String, DefaultWeightedEdge> g) {
    List<Set<String>> out = new ArrayList<>();
    for (Set<String> c : new LabelPropagationClustering<>(g, 100, new Random(7)).getClustering().getClusters()) {
      out.add(new TreeSet<>(c));
    }
    return out;
  }

  /** Jaccard index of two nodes' neighbour sets restricted to identifiers: |N(a) ∩ N(b)| / |N(a) ∪ N(b)|. */
  public static double jaccard(Graph<String, DefaultWeightedEdge> g, Map<String, String> types, String a, String b) {
    Set<String> na = identifiers(g, types, a);
    Set<String> nb = identifiers(g, types, b);
    if (na.isEmpty() && nb.isEmpty()) {
      return 0;
    }
    Set<String> common = new HashSet<>(na);
    common.retainAll(nb);
    return (double) common.size() / (na.size() + nb.size() - common.size());
  }

  private static Set<String> identifiers(Graph<String, DefaultWeightedEdge> g, Map<String, String> types, String v) {
    Set<String> out = new HashSet<>();
    if (!g.containsVertex(v)) {
      return out;
    }
    for (DefaultWeightedEdge e : g.edgesOf(v)) {
      String o = g.getEdgeSource(e).equals(v) ? g.getEdgeTarget(e) : g.getEdgeSource(e);
      String t = types.get(o);
      if (!Types.isSubject(t) && !Types.CASE.equals(t) && !Types.DOCUMENT.equals(t)) {
        out.add(o);
      }
    }
    return out;
  }

  /** The risk reaching {@code target} from one seed, with the path it took (target first, seed last). */
  public record Propagated(String seed, double seedRisk, double risk, List<String> path) {
  }

  /**
   * For each seed (a node of positive risk other than {@code target}), the largest risk reaching {@code target}
   * (see the class comment), best first; seeds that cannot reach it are left out.
   */
  public static List<Propagated> propagate(Graph<String, DefaultWeightedEdge> g, Map<String, Double> risk, String target) {
    // best-first search from the target on the product of (weight × DECAY): every seed's best path at once
    Map<String, Double> best = new HashMap<>();
    Map<String, String> prev = new HashMap<>();
    PriorityQueue<Map.Entry<String, Double>> queue = new PriorityQueue<>(
        Comparator.comparingDouble((Map.Entry<String, Double> e) -> -e.getValue()).thenComparing(Map.Entry::getKey));
    if (!g.containsVertex(target)) {
      return List.of();
    }
    best.put(target, 1.0);
    queue.add(Map.entry(target, 1.0));
    Set<String> done = new LinkedHashSet<>();
    while (!queue.isEmpty()) {
      Map.Entry<String, Double> top = queue.poll();
      String v = top.getKey();
      if (!done.add(v)) {
        continue;
      }
      for (DefaultWeightedEdge e : g.edgesOf(v)) {
        String o = g.getEdgeSource(e).equals(v) ? g.getEdgeTarget(e) : g.getEdgeSource(e);
        double f = top.getValue() * g.getEdgeWeight(e) * DECAY;
        if (!done.contains(o) && f > best.getOrDefault(o, 0.0)) {
          best.put(o, f);
          prev.put(o, v);
          queue.add(Map.entry(o, f));
        }
      }
    }
    List<Propagated> out = new ArrayList<>();
    for (Map.Entry<String, Double> r : risk.entrySet()) {
      String seed = r.getKey();
      if (seed.equals(target) || r.getValue() <= 0 || !best.containsKey(seed)) {
        continue;
      }
      List<String> path = new ArrayList<>();
      for (String v = seed; v != null; v = prev.get(v)) {
        path.add(0, v);
      }
      out.add(new Propagated(seed, r.getValue(), r.getValue() * best.get(seed), path));
    }
    out.sort(Comparator.comparingDouble((Propagated p) -> -p.risk()).thenComparing(Propagated::seed));
    return out;
  }
}
