package dev.argus.graph;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * A bounded piece of the graph around a subject: its nodes (with their hop distance from the subject), the edges
 * between them, and whether a bound (depth, fan-out per node, node limit) cut something off.
 */
public record Subgraph(String center, Map<String, GraphStore.Node> nodes, Map<String, Integer> hops,
                       List<GraphStore.Edge> edges, boolean truncated) {

  public JsonObject toJson() {
    JsonArray n = new JsonArray();
    nodes.values().forEach(node -> n.add(node.toJson().put("hops", hops.get(node.id()))));
    JsonArray e = new JsonArray();
    edges.forEach(edge -> e.add(edge.toJson()));
    return new JsonObject().put("center", center).put("nodes", n).put("edges", e).put("truncated", truncated);
  }
}
