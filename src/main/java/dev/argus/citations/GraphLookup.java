package dev.argus.citations;

import io.vertx.core.Future;

import java.util.Optional;

/**
 * What validation asks of the graph. In the service this is the graph capability over the event bus
 * ({@link BusGraphLookup}, cached per graph version by {@link CachedGraphLookup}); an absent entity, relation or path
 * is an empty optional, every other failure a failed future.
 */
public interface GraphLookup {

  Future<Optional<GraphEntity>> entity(String id);

  Future<Optional<GraphEdge>> relation(String id);

  /**
   * The shortest path between two entities of at most {@code maxDepth} edges, if any, using only facts seen at or
   * before {@code asOf} (ISO-8601; null = now) and, when {@code minWeight} > 0, only edges at least that heavy.
   */
  Future<Optional<GraphPath>> path(String from, String to, int maxDepth, String asOf, double minWeight);
}
