package dev.argus.documents;

import io.vertx.core.json.JsonObject;

/** The request of {@code argus.knowledge.documents.list}: one page of documents, optionally of one namespace. */
public record DocumentListRequest(String namespace, int offset, int limit) {

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("offset", offset).put("limit", limit);
    return namespace == null ? j : j.put("namespace", namespace);
  }

  public static DocumentListRequest fromJson(JsonObject json) {
    return new DocumentListRequest(json.getString("namespace"), json.getInteger("offset", 0),
        json.getInteger("limit", 50));
  }
}
