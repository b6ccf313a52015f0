package dev.argus.documents;

import io.vertx.core.json.JsonObject;

/** One document by id: the request of {@code argus.knowledge.document.get} and {@code .delete} ({@code {id}}). */
public record DocumentRef(String id) {

  public JsonObject toJson() {
    return new JsonObject().put("id", id);
  }

  /** A missing or non-text id reads as {@code null} (the verticle answers 400 {@code missing_field}). */
  public static DocumentRef fromJson(JsonObject json) {
    return new DocumentRef(json.getValue("id") instanceof String s ? s : null);
  }
}
