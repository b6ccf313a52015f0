package dev.argus.citations;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** A shortest path (reply of {@code argus.graph.path}): node ids in order and the edges between them. */
public record GraphPath(List<String> nodes, List<GraphEdge> edges) {

  public GraphPath {
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
    if (nodes.size() != edges.size() + 1) {
      throw new IllegalArgumentException("a path of " + edges.size() + " edges has " + (edges.size() + 1) + " nodes");
    }
  }

  public int length() {
    return edges.size();
  }

  /** Reads {@code path} of the graph's reply; nodes may be ids or objects with an {@code id}. */
  public static GraphPath fromJson(JsonObject path) {
    List<String> nodes = new ArrayList<>();
    for (Object n : path.getJsonArray("nodes", new JsonArray())) {
      nodes.add(n instanceof JsonObject o ? o.getString("id") : String.valueOf(n));
    }
    List<GraphEdge> edges = new ArrayList<>();
    for (Object e : path.getJsonArray("edges", new JsonArray())) {
      edges.add(GraphEdge.fromJson((JsonObject) e));
    }
    return new GraphPath(nodes, edges);
  }

  public JsonObject toJson() {
    return new JsonObject().put("nodes", new JsonArray(new ArrayList<Object>(nodes)))
        .put("edges", new JsonArray(edges.stream().map(GraphEdge::toJson).toList()));
  }
}
