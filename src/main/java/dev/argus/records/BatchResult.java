package dev.argus.records;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What one committed batch of a load did: its line range, the records created, updated and unchanged, the lines
 * refused (with their errors), and what the graph made of it ({@code graph}: {@code applied}, {@code skipped} when no
 * graph is deployed, or {@code failed} with {@code graphError}; the records are stored in every case).
 */
public record BatchResult(long firstLine, long lastLine, int created, int updated, int unchanged,
                          List<LineError> errors, String graph, long graphNodes, long graphEdges, String graphError) {

  public static final String GRAPH_APPLIED = "applied";
  public static final String GRAPH_SKIPPED = "skipped";
  public static final String GRAPH_FAILED = "failed";

  public int stored() {
    return created + updated + unchanged;
  }

  public JsonObject toJson() {
    JsonArray errs = new JsonArray();
    errors.forEach(e -> errs.add(e.toJson()));
    return new JsonObject().put("firstLine", firstLine).put("lastLine", lastLine).put("created", created)
        .put("updated", updated).put("unchanged", unchanged).put("failed", errors.size()).put("errors", errs)
        .put("graph", graph).put("graphNodes", graphNodes).put("graphEdges", graphEdges).put("graphError", graphError);
  }
}
