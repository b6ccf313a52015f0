package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

/** Counts and identity of a knowledge store, for {@code /api/health}. */
public record StoreStats(String type, long documents, long chunks, String embeddingModel, int dimension) {

  public JsonObject toJson() {
    return new JsonObject().put("type", type).put("documents", documents).put("chunks", chunks)
        .put("embeddingModel", embeddingModel).put("dimension", dimension);
  }
}
