package dev.argus.citations;

import io.vertx.core.json.JsonObject;

/** The part of a graph relation that validation needs (reply of {@code argus.graph.relation.get}, path edges). */
public record GraphEdge(String id, String type, String from, String to, double weight) {

  public static GraphEdge fromJson(JsonObject json) {
    Number w = json.getNumber("weight");
    double weight = w == null ? 1.0 : Math.max(0, Math.min(1, w.doubleValue()));
    return new GraphEdge(json.getString("id"), json.getString("type"), json.getString("from"), json.getString("to"),
        weight);
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("type", type).put("from", from).put("to", to).put("weight", weight);
  }

  /** True when this edge joins {@code a} and {@code b}, in either direction. */
  public boolean joins(String a, String b) {
    return (from.equals(a) && to.equals(b)) || (from.equals(b) && to.equals(a));
  }
}
