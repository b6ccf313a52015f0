package dev.argus.retrieval;

import io.vertx.core.json.JsonObject;

/** Where one retriever placed a chunk: its 1-based rank in that retriever's list and that retriever's score. */
public record LegHit(int rank, double score) {

  public JsonObject toJson() {
    return new JsonObject().put("rank", rank).put("score", score);
  }

  public static LegHit fromJson(JsonObject json) {
    return new LegHit(json.getInteger("rank"), json.getDouble("score"));
  }
}
