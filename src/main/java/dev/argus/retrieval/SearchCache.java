package dev.argus.retrieval;

import java.text.Normalizer;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A short-lived, bounded cache of search responses.
 *
 * <p>The key is the request with its query normalized (Unicode NFKC, whitespace collapsed and trimmed; case is
 * kept, because metadata values read by the self-query are case-sensitive) plus every other option and the
 * explicit filters. Entries expire after {@code ttlMillis}; beyond {@code maxEntries} the least recently used
 * entry goes. Each entry remembers the namespace its search was restricted to ({@code null}: all namespaces).
 *
 * <p>Invalidation: a change in namespace N drops the entries restricted to N and the unrestricted ones; a
 * change in an unknown namespace drops everything. A search that started before an invalidation does not
 * store its (possibly stale) response: {@link #put} takes the {@link #generation()} read when the search began.
 * A TTL or size of 0 disables the cache. Thread-safe.
 */
public final class SearchCache {

  private final long ttlNanos;
  private final int maxEntries;
  private final LongSupplier clock;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long generation;
  private long hits;
  private long misses;

  private record Entry(SearchResponse response, String namespace, long expiresAt) {
  }

  public SearchCache(long ttlMillis, int maxEntries) {
    this(ttlMillis, maxEntries, System::nanoTime);
  }

  /** With an explicit nanosecond clock, for tests. */
  public SearchCache(long ttlMillis, int maxEntries, LongSupplier nanoClock) {
    this.ttlNanos = ttlMillis * 1_000_000L;
    this.maxEntries = maxEntries;
    this.clock = nanoClock;
  }

  public boolean enabled() {
    return ttlNanos > 0 && maxEntries > 0;
  }

  /** The cache key of a request. */
  public static String key(SearchRequest request) {
    String query = Normalizer.normalize(request.query(), Normalizer.Form.NFKC).replaceAll("\\s+", " ").strip();
    return request.withQuery(query).toJson().encode();
  }

  /** Bumped by every invalidation. */
  public synchronized long generation() {
    return generation;
  }

  /** The cached response, or {@code null}. */
  public synchronized SearchResponse get(String key) {
    if (!enabled()) {
      return null;
    }
    Entry e = entries.get(key);
    if (e == null || clock.getAsLong() - e.expiresAt >= 0) {
      if (e != null) {
        entries.remove(key);
      }
      misses++;
      return null;
    }
    hits++;
    return e.response;
  }

  /**
   * Stores a response unless the cache was invalidated since {@code generationAtStart}.
   *
   * @param namespace the namespace the search was restricted to, {@code null} for all
   */
  public synchronized void put(String key, String namespace, SearchResponse response, long generationAtStart) {
    if (!enabled() || generationAtStart != generation) {
      return;
    }
    entries.put(key, new Entry(response, namespace, clock.getAsLong() + ttlNanos));
    while (entries.size() > maxEntries) {
      Iterator<String> eldest = entries.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
  }

  /** A change in {@code namespace} ({@code null}: unknown, drop everything). */
  public synchronized void invalidate(String namespace) {
    generation++;
    if (namespace == null) {
      entries.clear();
      return;
    }
    entries.values().removeIf(e -> e.namespace == null || Objects.equals(e.namespace, namespace));
  }

  public synchronized void clear() {
    generation++;
    entries.clear();
  }

  public synchronized int size() {
    return entries.size();
  }

  /** {@code {hits, misses, size}}. */
  public synchronized Map<String, Long> stats() {
    return Map.of("hits", hits, "misses", misses, "size", (long) entries.size());
  }
}
