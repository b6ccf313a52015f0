package dev.argus.citations;

import io.vertx.core.json.JsonObject;

/** The part of a graph entity that validation needs (reply of {@code argus.graph.entity.get}). */
public record GraphEntity(String id, String type, String label) {

  public static GraphEntity fromJson(JsonObject json) {
    return new GraphEntity(json.getString("id"), json.getString("type"), json.getString("label", ""));
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("type", type).put("label", label);
  }
}
