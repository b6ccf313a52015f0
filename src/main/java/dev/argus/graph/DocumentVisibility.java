package dev.argus.graph;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A key's namespace limit applied to graph answers. Document nodes ({@code doc:<id>}, type {@code document}) carry
 * the namespace their document was ingested into ({@code attributes.namespace}); for a caller limited to namespaces,
 * a document of a namespace it may not read is taken out of every graph answer, with the edges and relations touching
 * it (and, in a graph view, what was reachable only through it), and a direct read of it answers 404 exactly as an
 * absent one does. An unlimited caller's answers pass through untouched, with no extra look-up.
 */
public final class DocumentVisibility {

  private final Bus bus;

  public DocumentVisibility(Bus bus) {
    this.bus = bus;
  }

  /** True when {@code node} (an entity as JSON) is a document {@code caller} may not read. */
  static boolean hidden(JsonObject node, Caller caller) {
    if (node == null || !caller.limited() || !Types.DOCUMENT.equals(node.getString("type"))) {
      return false;
    }
    JsonObject attrs = node.getJsonObject("attributes");
    String ns = attrs == null ? null : attrs.getString("namespace");
    return ns == null || !caller.mayRead(ns);
  }

  /** An entity read ({@code GET /api/entities/{id}}): 404 when it is a hidden document. */
  public JsonObject entity(JsonObject node, Caller caller, String requestedId) {
    if (hidden(node, caller)) {
      throw GraphVerticle.notFound("entity", requestedId);
    }
    return node;
  }

  /** A fuzzy search answer without the hidden documents among its {@code entities}. */
  public JsonObject search(JsonObject answer, Caller caller) {
    if (!caller.limited()) {
      return answer;
    }
    JsonArray kept = new JsonArray();
    for (Object o : answer.getJsonArray("entities", new JsonArray())) {
      if (!hidden((JsonObject) o, caller)) {
        kept.add(o);
      }
    }
    return answer.put("entities", kept);
  }

  /**
   * A graph view ({@code center, nodes, edges}) without hidden documents, the edges touching them and the nodes no
   * longer connected to the center; the remaining nodes' {@code hops} are their distances over what is left. 404 when
   * the center itself is a hidden document.
   */
  public JsonObject subgraph(JsonObject sub, Caller caller, String requestedId) {
    if (!caller.limited()) {
      return sub;
    }
    String center = sub.getString("center");
    JsonArray nodes = sub.getJsonArray("nodes", new JsonArray());
    Set<String> gone = new HashSet<>();
    for (Object o : nodes) {
      JsonObject n = (JsonObject) o;
      if (hidden(n, caller)) {
        gone.add(n.getString("id"));
      }
    }
    if (gone.contains(center)) {
      throw GraphVerticle.notFound("entity", requestedId);
    }
    if (gone.isEmpty()) {
      return sub;
    }
    List<JsonObject> edges = new ArrayList<>();
    Map<String, List<String>> adjacent = new HashMap<>();
    for (Object o : sub.getJsonArray("edges", new JsonArray())) {
      JsonObject e = (JsonObject) o;
      String from = e.getString("from");
      String to = e.getString("to");
      if (!gone.contains(from) && !gone.contains(to)) {
        edges.add(e);
        adjacent.computeIfAbsent(from, k -> new ArrayList<>()).add(to);
        adjacent.computeIfAbsent(to, k -> new ArrayList<>()).add(from);
      }
    }
    Map<String, Integer> hops = new HashMap<>();
    hops.put(center, 0);
    ArrayDeque<String> queue = new ArrayDeque<>(List.of(center));
    while (!queue.isEmpty()) {
      String at = queue.poll();
      for (String next : adjacent.getOrDefault(at, List.of())) {
        if (hops.putIfAbsent(next, hops.get(at) + 1) == null) {
          queue.add(next);
        }
      }
    }
    JsonArray keptNodes = new JsonArray();
    for (Object o : nodes) {
      JsonObject n = (JsonObject) o;
      Integer h = hops.get(n.getString("id"));
      if (h != null) {
        keptNodes.add(n.put("hops", h));
      }
    }
    JsonArray keptEdges = new JsonArray();
    for (JsonObject e : edges) {
      if (hops.containsKey(e.getString("from")) && hops.containsKey(e.getString("to"))) {
        keptEdges.add(e);
      }
    }
    return sub.put("nodes", keptNodes).put("edges", keptEdges);
  }

  /** A relation read ({@code GET /api/relations/{id}}): 404 when one of its ends is a hidden document. */
  public Future<JsonObject> relation(JsonObject edge, Caller caller, String requestedId) {
    if (!caller.limited()) {
      return Future.succeededFuture(edge);
    }
    return hiddenAmong(List.of(edge.getString("from", ""), edge.getString("to", "")), caller).map(gone -> {
      if (!gone.isEmpty()) {
        throw GraphVerticle.notFound("relation", requestedId);
      }
      return edge;
    });
  }

  /**
   * An investigation without the risky-entity items (and their evidence-chain lines) whose path passes through a
   * hidden document; 404 when the subject itself is one.
   */
  public Future<JsonObject> investigation(JsonObject answer, Caller caller) {
    if (!caller.limited()) {
      return Future.succeededFuture(answer);
    }
    String subject = answer.getString("id");
    JsonArray items = answer.getJsonArray("items", new JsonArray());
    Set<String> ids = new LinkedHashSet<>();
    ids.add(subject == null ? "" : subject);
    for (Object o : items) {
      JsonObject it = (JsonObject) o;
      ids.add(it.getString("id", ""));
      for (Object n : it.getJsonArray("nodes", new JsonArray())) {
        ids.add(String.valueOf(n));
      }
    }
    return hiddenAmong(ids, caller).map(gone -> {
      if (gone.contains(subject)) {
        throw GraphVerticle.notFound("entity", subject);
      }
      if (gone.isEmpty()) {
        return answer;
      }
      JsonArray chain = answer.getJsonArray("evidenceChain", new JsonArray());
      JsonArray keptItems = new JsonArray();
      JsonArray keptChain = new JsonArray();
      for (int i = 0; i < items.size(); i++) {
        JsonObject it = items.getJsonObject(i);
        boolean through = gone.contains(it.getString("id"))
            || it.getJsonArray("nodes", new JsonArray()).stream().anyMatch(n -> gone.contains(String.valueOf(n)));
        if (!through) {
          keptItems.add(it);
          if (i < chain.size()) {
            keptChain.add(chain.getValue(i));
          }
        }
      }
      return answer.put("items", keptItems).put("evidenceChain", keptChain);
    });
  }

  /** The document ids among {@code ids} the caller may not read (one entity read per distinct document id). */
  private Future<Set<String>> hiddenAmong(Collection<String> ids, Caller caller) {
    List<String> docs = ids.stream().filter(id -> Types.DOCUMENT.equals(EntityIds.typeOf(id))).distinct().toList();
    if (docs.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    List<Future<Boolean>> checks = new ArrayList<>();
    for (String id : docs) {
      checks.add(bus.request(Addresses.GRAPH_ENTITY_GET, new JsonObject().put("id", id))
          .map(node -> hidden(node, caller))
          .recover(err -> Future.succeededFuture(!(err instanceof ApiException a) || a.status() != 404)));
    }
    return Future.all(checks).map(v -> {
      Set<String> gone = new HashSet<>();
      for (int i = 0; i < docs.size(); i++) {
        if (checks.get(i).result()) {
          gone.add(docs.get(i));
        }
      }
      return gone;
    });
  }
}
