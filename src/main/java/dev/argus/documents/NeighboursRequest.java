package dev.argus.documents;

import io.vertx.core.json.JsonObject;

/**
 * The request of {@code argus.knowledge.chunks.neighbours}: the chunks {@code before} and {@code after} chunk
 * {@code index} of a document (each at most {@link DocumentsVerticle#MAX_NEIGHBOURS}; default 1).
 */
public record NeighboursRequest(String documentId, int index, int before, int after) {

  public JsonObject toJson() {
    return new JsonObject().put("documentId", documentId).put("index", index).put("before", before).put("after", after);
  }

  public static NeighboursRequest fromJson(JsonObject json) {
    return new NeighboursRequest(json.getValue("documentId") instanceof String s ? s : null,
        json.getInteger("index", 0), json.getInteger("before", 1), json.getInteger("after", 1));
  }
}
