package dev.argus.graph;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Traversals over a {@link GraphStore}, the same for both dialects: the k-hop neighbourhood (breadth first, one
 * statement per hop, at most {@code fanout} edges per node, heaviest first, at most {@code limit} nodes), the shortest
 * path (breadth first from both ends under the same bounds) and the entities that share an identifier with a subject.
 */
public final class GraphQueries {

  public static final int MAX_DEPTH = 3;
  public static final int MAX_PATH_DEPTH = 5;

  private final GraphStore store;

  public GraphQueries(GraphStore store) {
    this.store = store;
  }

  /** Bounds of a traversal. */
  public record Bounds(int depth, int fanout, int limit, double minWeight, Long asOfMs) {
  }

  /** The neighbourhood of {@code id}; fails with IllegalArgumentException for a depth above {@link #MAX_DEPTH}. */
  public Future<Subgraph> neighbourhood(String id, Bounds b) {
    if (b.depth() < 0 || b.depth() > MAX_DEPTH) {
      return Future.failedFuture(new IllegalArgumentException("depth must be between 0 and " + MAX_DEPTH));
    }
    Map<String, Integer> hops = new LinkedHashMap<>();
    Map<String, GraphStore.Edge> edges = new LinkedHashMap<>();
    hops.put(id, 0);
    boolean[] truncated = {false};
    Promise<Subgraph> done = Promise.promise();
    expand(List.of(id), 1, b, hops, edges, truncated).compose(v -> store.nodes(hops.keySet(), b.asOfMs())).onSuccess(found -> {
      Map<String, GraphStore.Node> nodes = new LinkedHashMap<>();
      hops.keySet().forEach(n -> {
        if (found.containsKey(n)) {
          nodes.put(n, found.get(n));
        }
      });
      List<GraphStore.Edge> kept = edges.values().stream()
          .filter(e -> nodes.containsKey(e.from()) && nodes.containsKey(e.to())).toList();
      hops.keySet().retainAll(nodes.keySet());
      done.complete(new Subgraph(id, nodes, hops, kept, truncated[0]));
    }).onFailure(done::fail);
    return done.future();
  }

  private Future<Void> expand(List<String> frontier, int level, Bounds b, Map<String, Integer> hops,
                              Map<String, GraphStore.Edge> edges, boolean[] truncated) {
    if (frontier.isEmpty() || level > b.depth()) {
      return Future.succeededFuture();
    }
    return store.incident(frontier, b.fanout(), b.minWeight(), b.asOfMs()).compose(byNode -> {
      List<String> next = new ArrayList<>();
      for (String at : frontier) {
        List<GraphStore.Edge> list = byNode.getOrDefault(at, List.of());
        if (list.size() > b.fanout()) {
          truncated[0] = true;
          list = list.subList(0, b.fanout());
        }
        for (GraphStore.Edge e : list) {
          String other = e.other(at);
          if (!hops.containsKey(other)) {
            if (hops.size() >= b.limit()) {
              truncated[0] = true;
              continue;
            }
            hops.put(other, level);
            next.add(other);
          }
          edges.putIfAbsent(e.id(), e);
        }
      }
      return expand(next, level + 1, b, hops, edges, truncated);
    });
  }

  /** The shortest path from {@code from} to {@code to} within {@code b.depth()} hops (at most {@link #MAX_PATH_DEPTH}). */
  public Future<JsonObject> path(String from, String to, Bounds b) {
    if (b.depth() < 1 || b.depth() > MAX_PATH_DEPTH) {
      return Future.failedFuture(new IllegalArgumentException("maxDepth must be between 1 and " + MAX_PATH_DEPTH));
    }
    if (from.equals(to)) {
      return Future.succeededFuture(new JsonObject().put("found", true).put("path", new JsonObject()
          .put("nodes", new JsonArray().add(from)).put("edges", new JsonArray())));
    }
    Map<String, GraphStore.Edge> parentA = new HashMap<>();
    Map<String, GraphStore.Edge> parentB = new HashMap<>();
    Set<String> seenA = new LinkedHashSet<>(List.of(from));
    Set<String> seenB = new LinkedHashSet<>(List.of(to));
    return bidirectional(List.of(from), List.of(to), seenA, seenB, parentA, parentB, 0, b).map(meet -> {
      if (meet == null) {
        return new JsonObject().put("found", false);
      }
      List<String> nodes = new ArrayList<>();
      List<GraphStore.Edge> path = new ArrayList<>();
      for (String n = meet; n != null; ) {
        nodes.add(n);
        GraphStore.Edge e = parentA.get(n);
        if (e != null) {
          path.add(e);
        }
        n = e == null ? null : e.other(n);
      }
      Collections.reverse(nodes);
      Collections.reverse(path);
      for (String n = meet; parentB.get(n) != null; ) {
        GraphStore.Edge e = parentB.get(n);
        path.add(e);
        n = e.other(n);
        nodes.add(n);
      }
      JsonArray edges = new JsonArray();
      path.forEach(e -> edges.add(e.toJson()));
      return new JsonObject().put("found", true).put("hops", path.size())
          .put("path", new JsonObject().put("nodes", new JsonArray(nodes)).put("edges", edges));
    });
  }

  private Future<String> bidirectional(List<String> frontA, List<String> frontB, Set<String> seenA, Set<String> seenB,
                                       Map<String, GraphStore.Edge> parentA, Map<String, GraphStore.Edge> parentB,
                                       int used, Bounds b) {
    if (used >= b.depth() || frontA.isEmpty() || frontB.isEmpty()) {
      return Future.succeededFuture(null);
    }
    boolean fromA = frontA.size() <= frontB.size();
    List<String> front = fromA ? frontA : frontB;
    Set<String> seen = fromA ? seenA : seenB;
    Set<String> other = fromA ? seenB : seenA;
    Map<String, GraphStore.Edge> parent = fromA ? parentA : parentB;
    return store.incident(front, b.fanout(), b.minWeight(), b.asOfMs()).compose(byNode -> {
      List<String> next = new ArrayList<>();
      for (String at : front) {
        List<GraphStore.Edge> list = byNode.getOrDefault(at, List.of());
        for (GraphStore.Edge e : list.subList(0, Math.min(list.size(), b.fanout()))) {
          String n = e.other(at);
          if (seen.add(n)) {
            parent.put(n, e);
            if (other.contains(n)) {
              return Future.succeededFuture(n);
            }
            if (seen.size() < b.limit()) {
              next.add(n);
            }
          }
        }
      }
      return fromA ? bidirectional(next, frontB, seenA, seenB, parentA, parentB, used + 1, b)
          : bidirectional(frontA, next, seenA, seenB, parentA, parentB, used + 1, b);
    });
  }

  /** One identifier a subject shares with other subjects. */
  public record Shared(String identifier, String identifierType, List<String> others, boolean truncated) {
  }

  /**
   * The identifiers of {@code id} (its direct neighbours that are not subjects) and, for each, the other subjects that
   * use it (at most {@code b.fanout()} each); identifiers nobody else uses are left out.
   */
  public Future<List<Shared>> sharing(String id, Bounds b) {
    Bounds two = new Bounds(2, b.fanout(), b.limit(), b.minWeight(), b.asOfMs());
    return neighbourhood(id, two).map(sub -> {
      Map<String, List<String>> users = new LinkedHashMap<>();
      for (GraphStore.Edge e : sub.edges()) {
        for (String end : List.of(e.from(), e.to())) {
          String other = e.other(end);
          GraphStore.Node idNode = sub.nodes().get(end);
          GraphStore.Node user = sub.nodes().get(other);
          if (idNode != null && user != null && sub.hops().get(end) == 1 && !Types.isSubject(idNode.type())
              && Types.isSubject(user.type()) && !other.equals(id)) {
            users.computeIfAbsent(end, k -> new ArrayList<>()).add(other);
          }
        }
      }
      List<Shared> out = new ArrayList<>();
      users.forEach((ident, list) -> out.add(new Shared(ident, sub.nodes().get(ident).type(),
          list.stream().distinct().toList(), sub.truncated())));
      return out;
    });
  }
}
