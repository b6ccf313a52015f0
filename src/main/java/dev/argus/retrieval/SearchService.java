package dev.argus.retrieval;

import dev.argus.config.RetrievalConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Search with the retrieval cache in front of the {@link HybridRetriever}. Feed it the knowledge-change events
 * ({@link dev.argus.bus.Addresses#KNOWLEDGE_CHANGED}) through {@link #onKnowledgeChanged}.
 */
public final class SearchService {

  private final HybridRetriever retriever;
  private final SearchCache cache;

  public SearchService(HybridRetriever retriever, SearchCache cache) {
    this.retriever = retriever;
    this.cache = cache;
  }

  public static SearchService create(KnowledgeStore store, Embedder embedder, RetrievalConf conf) {
    return new SearchService(HybridRetriever.create(store, embedder, conf),
        new SearchCache(conf.cacheTtlMs(), conf.cacheMaxEntries()));
  }

  public Future<SearchResponse> search(SearchRequest request) {
    String key = SearchCache.key(request);
    SearchResponse hit = cache.get(key);
    if (hit != null) {
      return Future.succeededFuture(hit.asCached());
    }
    long generation = cache.generation();
    return retriever.search(request)
        .onSuccess(response -> cache.put(key, response.filters().namespace(), response, generation));
  }

  /**
   * A knowledge-change event {@code {namespace, documentId, change}}: drops the cache entries it may affect and
   * what the retriever knows of the store (namespaces, metadata fields).
   */
  public void onKnowledgeChanged(JsonObject event) {
    Object ns = event == null ? null : event.getValue("namespace");
    retriever.knowledgeChanged();
    cache.invalidate(ns instanceof String s && !s.isBlank() ? s : null);
  }

  public HybridRetriever retriever() {
    return retriever;
  }

  public SearchCache cache() {
    return cache;
  }
}
