package dev.argus.retrieval;

import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a search checks about the store before it searches: the namespaces that exist, and whether a metadata
 * field exists at all. Each is read once and kept until {@link #forget()} (called on every knowledge change),
 * instead of a query over all documents on every search; a failed read is not kept. Concurrent searches share
 * one read.
 */
final class KnowledgeShape {

  private final KnowledgeStore store;
  private final AtomicReference<Future<Set<String>>> namespaces = new AtomicReference<>();
  private final Map<String, Future<Boolean>> metadataKeys = new ConcurrentHashMap<>();

  KnowledgeShape(KnowledgeStore store) {
    this.store = store;
  }

  /** The store's namespaces plus {@code default}, which always exists (possibly empty). */
  Future<Set<String>> namespaces() {
    Future<Set<String>> known = namespaces.get();
    if (known != null) {
      return known;
    }
    Future<Set<String>> loaded = store.namespaces().map(ns -> {
      Set<String> all = new LinkedHashSet<>(ns);
      all.add(Document.DEFAULT_NAMESPACE);
      return Set.copyOf(all);
    });
    if (!namespaces.compareAndSet(null, loaded)) {
      return namespaces();
    }
    loaded.onFailure(err -> namespaces.compareAndSet(loaded, null));
    return loaded;
  }

  /**
   * Whether some document has the metadata field {@code key} (dot-separated: its first segment, the top-level
   * field, decides; a nested field cannot exist without it).
   */
  Future<Boolean> hasMetadataKey(String key) {
    String field = field(key);
    Future<Boolean> known = metadataKeys.get(field);
    if (known != null) {
      return known;
    }
    Future<Boolean> loaded = store.hasMetadataKey(field);
    Future<Boolean> raced = metadataKeys.putIfAbsent(field, loaded);
    if (raced != null) {
      return raced;
    }
    loaded.onFailure(err -> metadataKeys.remove(field, loaded));
    return loaded;
  }

  /** The top-level field of a (dot-separated) metadata key. */
  static String field(String key) {
    int dot = key.indexOf('.');
    return dot < 0 ? key : key.substring(0, dot);
  }

  /** A document was written or deleted: a namespace or a metadata field may have appeared or disappeared. */
  void forget() {
    namespaces.set(null);
    metadataKeys.clear();
  }
}
