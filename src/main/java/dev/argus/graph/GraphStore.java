package dev.argus.graph;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The entity graph in its stored form: nodes, typed weighted edges, and the provenance of every fact. Two
 * implementations (embedded SQLite and PostgreSQL) pass one contract test suite ({@code GraphStoreContract}). Every
 * method is non-blocking. Traversals ({@link GraphQueries}) are built on {@link #incident}, which reads a node's
 * heaviest edges first and never more than asked, so a hub with 100,000 edges costs what its first few cost.
 */
public interface GraphStore {

  /** A node; {@code degree} is -1 when not counted. */
  record Node(String id, String type, String label, JsonObject attributes, double risk, long firstSeen, long lastSeen,
              long degree) {

    public String cite() {
      return EntityIds.citeEntity(type, id);
    }

    public JsonObject toJson() {
      JsonObject j = new JsonObject().put("id", id).put("type", type).put("label", label)
          .put("attributes", attributes).put("risk", risk).put("firstSeen", Times.iso(firstSeen))
          .put("lastSeen", Times.iso(lastSeen)).put("cite", cite());
      return degree >= 0 ? j.put("degree", degree) : j;
    }
  }

  /** An edge; {@code provenance} holds up to the asked number of sources ({@code sources} counts them all, -1 unknown). */
  record Edge(String id, String type, String from, String to, double weight, long firstSeen, long lastSeen,
              List<JsonObject> provenance, long sources) {

    public String other(String end) {
      return from.equals(end) ? to : from;
    }

    public JsonObject toJson() {
      JsonObject j = new JsonObject().put("id", id).put("type", type).put("from", from).put("to", to)
          .put("weight", weight).put("firstSeen", Times.iso(firstSeen)).put("lastSeen", Times.iso(lastSeen))
          .put("cite", EntityIds.citeRelation(id));
      if (provenance != null) {
        j.put("provenance", new JsonArray(List.copyOf(provenance)));
      }
      return sources >= 0 ? j.put("sources", sources) : j;
    }
  }

  /** A ring or community with a stable id. */
  record Group(String id, String kind, List<String> members, double risk, long firstSeen, long lastSeen,
               long createdAt, long updatedAt) {
  }

  /** What an apply did: distinct nodes and edges written, and those removed because their last source went. */
  record Applied(long nodes, long edges, long removedNodes, long removedEdges) {
    public JsonObject toJson() {
      return new JsonObject().put("nodes", nodes).put("edges", edges).put("removedNodes", removedNodes)
          .put("removedEdges", removedEdges);
    }
  }

  /**
   * In one transaction: removes every source whose origin is one of {@code facts.origins()}, adds the new facts, and
   * brings the touched nodes and edges up to date (weight, first/last seen, risk); a node or edge left without
   * sources (a node also without edges) is deleted.
   */
  Future<Applied> apply(Facts facts);

  Future<Optional<Node>> node(String id);

  /** The nodes of these ids that exist (degree not counted). */
  Future<Map<String, Node>> nodes(Collection<String> ids);

  /**
   * The nodes of these ids as they were at {@code asOfMs} (all of them, as {@link #nodes(Collection)}, when null): only
   * nodes first seen by then, with the risk of their sources dated by then (the largest, 0 when none) and their last-seen
   * capped at then.
   */
  Future<Map<String, Node>> nodes(Collection<String> ids, Long asOfMs);

  /** An edge with up to {@code maxProvenance} of its sources, latest first. */
  Future<Optional<Edge>> edge(String id, int maxProvenance);

  /**
   * The edges at each of {@code ids} (either end), at most {@code perNode} per node, heaviest first (then latest,
   * then id); only edges of weight at least {@code minWeight} and, when {@code asOfMs} is set, first seen by then.
   * {@code perNode + 1} rows tell the caller the node had more.
   */
  Future<Map<String, List<Edge>>> incident(Collection<String> ids, int perNode, double minWeight, Long asOfMs);

  /** Nodes whose label or id resembles {@code query} (trigram similarity and substring), best first. */
  Future<List<Node>> search(String query, String type, int limit);

  /** Stored groups of {@code kind} with at least one of {@code members}. */
  Future<List<Group>> groupsTouching(String kind, Collection<String> members);

  Future<Optional<Group>> group(String id);

  /** Inserts or replaces a group and its member list. */
  Future<Void> saveGroup(Group group);

  /** Counts: {@code {nodes, edges, sources, groups}}. */
  Future<JsonObject> stats();

  /** Drops what this store holds in memory (another process changed the graph); a store without a cache ignores it. */
  default void forgetCached() {
  }
}
