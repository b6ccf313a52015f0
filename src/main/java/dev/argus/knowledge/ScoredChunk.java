package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

/** One hit of one retriever: the chunk, its document's title, namespace and metadata, and the retriever's score. */
public record ScoredChunk(String documentId, String namespace, String title, int chunkIndex, int chunkTotal,
                          String text, double score, JsonObject metadata) {

  /** The key that identifies the chunk across retrievers (for fusion and deduplication). */
  public String key() {
    return documentId + "#" + chunkIndex;
  }
}
