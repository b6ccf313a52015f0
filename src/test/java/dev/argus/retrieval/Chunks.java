package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;
import io.vertx.core.json.JsonObject;

/** Test helper: scored chunks with just an id, a score and optionally a text. */
final class Chunks {

  private Chunks() {
  }

  static ScoredChunk hit(String doc, double score) {
    return hit(doc, score, "text of " + doc);
  }

  static ScoredChunk hit(String doc, double score, String text) {
    return new ScoredChunk(doc, "default", "Title " + doc, 0, 1, text, score, new JsonObject());
  }
}
