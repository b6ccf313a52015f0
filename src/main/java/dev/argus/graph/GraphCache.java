package dev.argus.graph;

import dev.argus.graph.GraphStore.Edge;
import dev.argus.graph.GraphStore.Node;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An in-memory cache of the graph's hot reads, in front of a {@link SqlGraphStore}: per node, the heaviest edges at
 * each end as the store sorts them (weight descending, then id), as many as the traversal that read them asked for
 * ({@code perNode + 1}, at most {@link #MAX_PREFIX}), and whether that is all of them; and the node rows read without
 * {@code asOf}. At most {@code maxNodes} nodes are held (least recently used go first). A traversal asks for the first
 * {@code perNode + 1} edges of at least a weight (and first seen by a time): the cached prefix answers whenever it holds
 * that many such edges, reaches a lighter edge, or holds every edge of the end; so a hub costs its prefix, not its
 * 100,000 edges, and the 3-hop tools (weight at least 0.6 or 0.7) reuse the edges a 2-hop read (any weight) cached.
 * Otherwise the store is asked.
 *
 * <p>Invalidated on writes: after each committed apply the store drops every node the change touched (endpoints of
 * added or removed edges, nodes with added or removed facts) and bumps the generation. A read remembers the generation
 * before it queries and caches its rows only if no write committed in between, so a read racing a write never caches
 * what the write replaced. This process's writes are the only ones it sees: a second process writing the same
 * PostgreSQL graph must {@link #clear} it (the graph verticle does on a foreign {@code argus.graph.changed}).
 * Thread-safe.
 */
final class GraphCache {

  /** The largest {@code perNode + 1} whose edges are cached (a larger fan-out reads the store). */
  static final int MAX_PREFIX = 257;

  /**
   * The cached edges at one end of a node, the store's order (weight descending, then id): a prefix of them, or all
   * when {@code complete}.
   */
  record End(List<Edge> edges, boolean complete) {

    /**
     * The first {@code n} edges of weight at least {@code minWeight} first seen by {@code asOfMs} (when set), or null
     * when the prefix cannot tell (fewer such edges in it, and the end has more of at least that weight).
     */
    List<Edge> first(int n, double minWeight, Long asOfMs) {
      List<Edge> out = new ArrayList<>(Math.min(n, edges.size()));
      for (Edge e : edges) {
        if (e.weight() < minWeight) {
          return out; // the rest are lighter still
        }
        if (asOfMs == null || e.firstSeen() <= asOfMs) {
          out.add(e);
          if (out.size() == n) {
            return out;
          }
        }
      }
      return complete ? out : null;
    }
  }

  private record Adjacency(End src, End dst) {
  }

  private final int maxNodes;
  private final Map<String, Adjacency> adjacency;
  private final Map<String, Node> nodes;
  private long generation;
  private long hits;
  private long misses;

  GraphCache(int maxNodes) {
    this.maxNodes = maxNodes;
    this.adjacency = lru(maxNodes);
    this.nodes = lru(maxNodes);
  }

  private static <V> Map<String, V> lru(int max) {
    return new LinkedHashMap<>(1024, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > max;
      }
    };
  }

  boolean enabled() {
    return maxNodes > 0;
  }

  synchronized long generation() {
    return generation;
  }

  /** The cached ends {src, dst} of {@code id}, or null when not cached. */
  synchronized End[] adjacency(String id) {
    Adjacency a = adjacency.get(id);
    if (a == null) {
      misses++;
      return null;
    }
    hits++;
    return new End[] {a.src(), a.dst()};
  }

  /** Caches a node's ends read when the generation was {@code seen} (ignored when a write committed since). */
  synchronized void putAdjacency(long seen, String id, End src, End dst) {
    if (seen == generation && enabled()) {
      adjacency.put(id, new Adjacency(src, dst));
    }
  }

  synchronized Node node(String id) {
    return nodes.get(id);
  }

  synchronized void putNodes(long seen, Collection<Node> read) {
    if (seen == generation && enabled()) {
      read.forEach(n -> nodes.put(n.id(), n));
    }
  }

  /** After a committed write: forgets these nodes and their edges, and makes racing reads not cache. */
  synchronized void invalidate(Collection<String> ids) {
    generation++;
    for (String id : ids) {
      adjacency.remove(id);
      nodes.remove(id);
    }
  }

  synchronized void clear() {
    generation++;
    adjacency.clear();
    nodes.clear();
  }

  /** {hits, misses, cached nodes} of the adjacency cache. */
  synchronized long[] stats() {
    return new long[] {hits, misses, adjacency.size()};
  }
}
