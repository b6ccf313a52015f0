package dev.argus.embed;

import io.vertx.core.Future;

import java.util.List;

/**
 * Turns text into unit-length vectors. Passages and queries are embedded differently (retrieval models
 * such as bge prefix queries with an instruction). Implementations never block the caller's event loop.
 */
public interface Embedder {

  /** The model's name as recorded by the store (e.g. {@code bge-small-en-v1.5-q}). */
  String modelName();

  int dimension();

  /** Embeds passages for storage, batched; one unit-length vector per text, in order. */
  Future<List<float[]>> embedPassages(List<String> texts);

  /** Embeds a search query (with the model's query instruction, if it has one). */
  Future<float[]> embedQuery(String text);

  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
