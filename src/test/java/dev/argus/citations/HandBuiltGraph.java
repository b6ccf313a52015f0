package dev.argus.citations;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small graph written out by hand for the validator's unit tests: entities, edges and a breadth-first shortest
 * path, answering the {@link GraphLookup} questions the way the graph capability's contract says. Optionally every
 * answer is delayed (to observe parallelism) or never given (to observe the per-citation timeout). The tests against
 * the real graph store are in {@code CitationsOnGraphTest}.
 */
final class HandBuiltGraph implements GraphLookup {

  final Map<String, GraphEntity> entities = new LinkedHashMap<>();
  final Map<String, GraphEdge> edges = new LinkedHashMap<>();
  final AtomicInteger calls = new AtomicInteger();
  final AtomicInteger inFlight = new AtomicInteger();
  final AtomicInteger peakInFlight = new AtomicInteger();
  private Vertx vertx;
  private long delayMs;
  private boolean silent;

  HandBuiltGraph entity(String id, String type) {
    entities.put(id, new GraphEntity(id, type, id));
    return this;
  }

  /** Adds an edge with id {@code rel-<from>-<to>}. */
  HandBuiltGraph edge(String type, String from, String to, double weight) {
    String id = "rel-" + from + "-" + to;
    edges.put(id, new GraphEdge(id, type, from, to, weight));
    return this;
  }

  HandBuiltGraph delayed(Vertx vertx, long delayMs) {
    this.vertx = vertx;
    this.delayMs = delayMs;
    return this;
  }

  HandBuiltGraph silent() {
    this.silent = true;
    return this;
  }

  @Override
  public Future<Optional<GraphEntity>> entity(String id) {
    return answer(Optional.ofNullable(entities.get(id)));
  }

  @Override
  public Future<Optional<GraphEdge>> relation(String id) {
    return answer(Optional.ofNullable(edges.get(id)));
  }

  @Override
  public Future<Optional<GraphPath>> path(String from, String to, int maxDepth, String asOf, double minWeight) {
    Map<String, GraphEdge> via = new HashMap<>();
    Map<String, Integer> depth = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    depth.put(from, 0);
    queue.add(from);
    while (!queue.isEmpty()) {
      String n = queue.poll();
      if (n.equals(to)) {
        break;
      }
      if (depth.get(n) == maxDepth) {
        continue;
      }
      for (GraphEdge e : edges.values()) {
        if (e.weight() < minWeight) {
          continue;
        }
        String other = e.from().equals(n) ? e.to() : e.to().equals(n) ? e.from() : null;
        if (other != null && !depth.containsKey(other)) {
          depth.put(other, depth.get(n) + 1);
          via.put(other, e);
          queue.add(other);
        }
      }
    }
    if (!depth.containsKey(to) || from.equals(to)) {
      return answer(Optional.empty());
    }
    List<String> nodes = new ArrayList<>();
    List<GraphEdge> path = new ArrayList<>();
    for (String n = to; !n.equals(from); ) {
      nodes.add(n);
      GraphEdge e = via.get(n);
      path.add(e);
      n = e.from().equals(n) ? e.to() : e.from();
    }
    nodes.add(from);
    Collections.reverse(nodes);
    Collections.reverse(path);
    return answer(Optional.of(new GraphPath(nodes, path)));
  }

  private <T> Future<T> answer(T value) {
    calls.incrementAndGet();
    if (silent) {
      return Promise.<T>promise().future();
    }
    if (vertx == null || delayMs == 0) {
      return Future.succeededFuture(value);
    }
    peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    Promise<T> p = Promise.promise();
    vertx.setTimer(delayMs, id -> {
      inFlight.decrementAndGet();
      p.complete(value);
    });
    return p.future();
  }
}
