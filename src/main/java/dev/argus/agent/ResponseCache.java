package dev.argus.agent;

import io.vertx.core.json.JsonObject;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Final answers for identical normalised questions (same profile, namespace and filters), kept {@code ttlMs}, at most
 * {@code maxEntries} (oldest evicted first), dropped for a namespace when its knowledge changes. Used from the
 * coordinator's context only.
 */
public final class ResponseCache {

  private record Entry(String namespace, JsonObject value, long expiresAt) {
  }

  private final long ttlMs;
  private final int maxEntries;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

  public ResponseCache(long ttlMs, int maxEntries) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  public static String key(String profile, String namespace, String question, JsonObject filters) {
    String normalized = question.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").replaceAll("[\\s?!.]+$", "").trim();
    return profile + "\u0000" + namespace + "\u0000" + normalized + "\u0000" + (filters == null ? "{}" : filters.encode());
  }

  public JsonObject get(String key, long now) {
    Entry e = entries.get(key);
    if (e == null) {
      return null;
    }
    if (e.expiresAt() <= now) {
      entries.remove(key);
      return null;
    }
    return e.value().copy();
  }

  public void put(String key, String namespace, JsonObject value, long now) {
    if (ttlMs <= 0 || maxEntries <= 0) {
      return;
    }
    entries.remove(key);
    entries.put(key, new Entry(namespace, value.copy(), now + ttlMs));
    while (entries.size() > maxEntries) {
      Iterator<String> it = entries.keySet().iterator();
      it.next();
      it.remove();
    }
  }

  /** Drops the answers of a namespace ({@code null}: all). */
  public void invalidate(String namespace) {
    if (namespace == null) {
      entries.clear();
      return;
    }
    entries.values().removeIf(e -> namespace.equals(e.namespace()));
  }

  public int size() {
    return entries.size();
  }

  Map<String, Entry> view() {
    return entries;
  }
}
