package dev.argus.graph;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one change puts into the graph: the {@code origins} (record or document ids) whose earlier contributions it
 * replaces, and the new node and edge facts, each with its source. An identifier node needs no fact of its own: an
 * edge creates its endpoints. A node fact carries what only a node has: a record's label and attributes
 * ({@code primary}) or a risk contribution (risk events, cases, watchlist entries).
 */
public final class Facts {

  /** Where a fact comes from: a record or a document chunk ({@code kind}), its id, its origin, its time (epoch ms). */
  public record Source(String kind, String id, String origin, long at) {
    public static final String RECORD = "record";
    public static final String CHUNK = "chunk";

    public JsonObject toJson() {
      return new JsonObject().put("kind", kind).put("id", id);
    }
  }

  /** A node with a label and attributes when {@code primary} (the record behind it), and a risk in [0, 1]. */
  public record NodeFact(String id, String type, String label, JsonObject attributes, boolean primary, double risk,
                         Source source) {
  }

  /** An edge between two entity ids ({@code fromType}/{@code toType} name the endpoints' types) with a weight. */
  public record EdgeFact(String type, String from, String fromType, String to, String toType, double weight,
                         Source source) {
    public String id() {
      return EntityIds.edge(type, from, to);
    }
  }

  final Set<String> origins = new LinkedHashSet<>();
  final List<NodeFact> nodes = new ArrayList<>();
  final List<EdgeFact> edges = new ArrayList<>();

  public Facts replacing(String origin) {
    origins.add(origin);
    return this;
  }

  public Facts node(NodeFact fact) {
    nodes.add(fact);
    return this;
  }

  public Facts edge(EdgeFact fact) {
    if (!fact.from().equals(fact.to())) {
      edges.add(fact);
    }
    return this;
  }

  public Set<String> origins() {
    return origins;
  }

  public List<NodeFact> nodes() {
    return nodes;
  }

  public List<EdgeFact> edges() {
    return edges;
  }

  public boolean isEmpty() {
    return origins.isEmpty() && nodes.isEmpty() && edges.isEmpty();
  }
}
