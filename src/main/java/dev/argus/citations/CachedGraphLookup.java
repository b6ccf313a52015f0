package dev.argus.citations;

import io.vertx.core.Future;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Caches a {@link GraphLookup}'s answers for the current graph version: {@link #invalidate()} (on
 * {@code argus.graph.changed}) starts a new version and drops everything. Concurrent identical lookups share one
 * request; failures are not kept; an answer that arrives after a change is not stored for the new version. At most
 * {@code maxEntries} answers, least recently used first out.
 */
public final class CachedGraphLookup implements GraphLookup {

  private final GraphLookup delegate;
  private final int maxEntries;
  private final Map<String, Future<?>> cache;
  private long version;
  private long hits;
  private long misses;

  public CachedGraphLookup(GraphLookup delegate, int maxEntries) {
    this.delegate = delegate;
    this.maxEntries = maxEntries;
    this.cache = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Future<?>> eldest) {
        return size() > CachedGraphLookup.this.maxEntries;
      }
    };
  }

  @Override
  public Future<Optional<GraphEntity>> entity(String id) {
    return cached("e\u0000" + id, () -> delegate.entity(id));
  }

  @Override
  public Future<Optional<GraphEdge>> relation(String id) {
    return cached("r\u0000" + id, () -> delegate.relation(id));
  }

  @Override
  public Future<Optional<GraphPath>> path(String from, String to, int maxDepth, String asOf, double minWeight) {
    return cached("p\u0000" + from + "\u0000" + to + "\u0000" + maxDepth + "\u0000" + asOf + "\u0000" + minWeight,
        () -> delegate.path(from, to, maxDepth, asOf, minWeight));
  }

  /** A new graph version: every cached answer is dropped. */
  public synchronized void invalidate() {
    version++;
    cache.clear();
  }

  public synchronized long version() {
    return version;
  }

  public synchronized int size() {
    return cache.size();
  }

  public synchronized long hits() {
    return hits;
  }

  public synchronized long misses() {
    return misses;
  }

  @SuppressWarnings("unchecked")
  private <T> Future<T> cached(String key, Supplier<Future<T>> load) {
    long at;
    synchronized (this) {
      if (maxEntries > 0) {
        Future<?> hit = cache.get(key);
        if (hit != null) {
          hits++;
          return (Future<T>) hit;
        }
      }
      misses++;
      at = version;
    }
    Future<T> f = load.get();
    if (maxEntries == 0) {
      return f;
    }
    synchronized (this) {
      if (at == version && !f.failed()) {
        cache.put(key, f);
      }
    }
    f.onFailure(err -> {
      synchronized (this) {
        cache.remove(key, f);
      }
    });
    return f;
  }
}
