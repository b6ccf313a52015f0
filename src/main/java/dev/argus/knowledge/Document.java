package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * A parent document: kept whole for small-to-big retrieval. {@code metadata} holds free-form string,
 * number and date (ISO-8601 string) values. {@code contentHash} identifies the content for deduplication.
 */
public record Document(String id, String namespace, String title, String source, String text, JsonObject metadata,
                       String contentHash, int chunkCount, Instant createdAt, Instant updatedAt) {

  public static final String DEFAULT_NAMESPACE = "default";

  /** The JSON shape used by the API; {@code withText} false leaves out the (possibly large) text. */
  public JsonObject toJson(boolean withText) {
    JsonObject json = new JsonObject()
        .put("id", id)
        .put("namespace", namespace)
        .put("title", title)
        .put("source", source)
        .put("metadata", metadata == null ? new JsonObject() : metadata)
        .put("contentHash", contentHash)
        .put("chunkCount", chunkCount)
        .put("createdAt", createdAt == null ? null : createdAt.toString())
        .put("updatedAt", updatedAt == null ? null : updatedAt.toString());
    if (withText) {
      json.put("text", text);
    }
    return json;
  }

  public static Document fromJson(JsonObject json) {
    String created = json.getString("createdAt");
    String updated = json.getString("updatedAt");
    return new Document(json.getString("id"), json.getString("namespace", DEFAULT_NAMESPACE), json.getString("title"),
        json.getString("source"), json.getString("text"), json.getJsonObject("metadata", new JsonObject()),
        json.getString("contentHash"), json.getInteger("chunkCount", 0),
        created == null ? null : Instant.parse(created), updated == null ? null : Instant.parse(updated));
  }
}
