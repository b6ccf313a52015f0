package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

/**
 * One chunk of a parent document: its position ({@code index} of {@code total}) and text, and its
 * embedding (unit length; may be {@code null} when read back without vectors).
 */
public record Chunk(String documentId, int index, int total, String text, float[] embedding) {

  public JsonObject toJson() {
    return new JsonObject().put("documentId", documentId).put("index", index).put("total", total).put("text", text);
  }
}
