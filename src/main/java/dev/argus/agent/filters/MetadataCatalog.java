package dev.argus.agent.filters;

import dev.argus.bus.Addresses;
import dev.argus.documents.DocumentListRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The metadata fields and values of a namespace's documents, read over the bus ({@code argus.knowledge.documents.list},
 * page by page, at most {@link #MAX_DOCUMENTS} documents) and kept {@link #TTL_MS}. A field with more than
 * {@link #MAX_VALUES} distinct values is open (its values are not listed). Used from one verticle's context.
 */
public final class MetadataCatalog {

  static final int PAGE = 500;
  static final int MAX_DOCUMENTS = 10_000;
  static final int MAX_VALUES = 200;
  static final long TTL_MS = 60_000;

  private record Entry(Future<KnownFields> fields, long expiresAt) {
  }

  private final Vertx vertx;
  private final long timeoutMs;
  private final Map<String, Entry> cache = new HashMap<>();

  public MetadataCatalog(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  /** The known fields of a namespace ({@code null}: every namespace). */
  public Future<KnownFields> fields(String namespace) {
    String key = namespace == null ? "" : namespace;
    long now = System.currentTimeMillis();
    Entry e = cache.get(key);
    if (e != null && e.expiresAt() > now && !e.fields().failed()) {
      return e.fields();
    }
    Future<KnownFields> loaded = load(namespace, 0, new HashMap<>(), new LinkedHashSet<>());
    cache.put(key, new Entry(loaded, now + TTL_MS));
    return loaded;
  }

  private Future<KnownFields> load(String namespace, int offset, Map<String, Set<String>> values, Set<String> open) {
    DocumentListRequest req = new DocumentListRequest(namespace, offset, PAGE);
    return vertx.eventBus().<JsonObject>request(Addresses.DOCUMENTS_LIST, req.toJson(),
        new DeliveryOptions().setSendTimeout(timeoutMs)).compose(m -> {
          JsonArray docs = m.body().getJsonArray("documents", new JsonArray());
          for (Object o : docs) {
            JsonObject meta = o instanceof JsonObject d ? d.getJsonObject("metadata", new JsonObject()) : new JsonObject();
            for (String field : meta.fieldNames()) {
              add(field, meta.getValue(field), values, open);
            }
          }
          int next = offset + docs.size();
          if (docs.isEmpty() || next >= m.body().getInteger("total", 0) || next >= MAX_DOCUMENTS) {
            return Future.succeededFuture(new KnownFields(values, open));
          }
          return load(namespace, next, values, open);
        });
  }

  private static void add(String field, Object value, Map<String, Set<String>> values, Set<String> open) {
    if (open.contains(field)) {
      return;
    }
    Set<String> set = values.computeIfAbsent(field, f -> new LinkedHashSet<>());
    if (value instanceof JsonArray list) {
      list.forEach(v -> set.add(String.valueOf(v)));
    } else if (value instanceof String s && s.contains(",")) {
      for (String part : s.split(",")) {
        set.add(part.trim());
      }
      set.add(s);
    } else if (value != null) {
      set.add(String.valueOf(value));
    }
    if (set.size() > MAX_VALUES) {
      values.remove(field);
      open.add(field);
    }
  }
}
