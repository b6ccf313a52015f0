package dev.argus.graph;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The identifiers a subject shares with other subjects, in two store reads and no subgraph: the subject's edges to
 * identifier entities (e-mail, phone, device, IP, address, bank account, tax id, ...), then those identifiers' edges to
 * other sellers and buyers — the question {@code graph_connections} answers from a 2-hop neighbourhood, asked directly
 * (what a decision needs on its fast path; the tool {@code identifier_sharing}). Facts first seen after {@code asOf}
 * are not read. Reply {@code {id, items, signals}}: one item per shared identifier ({@code type, identifier, relation,
 * weight, sharedWith, cite [rel:ID], entityCite}) and the signals {@code sharedIdentifiers, linkedSubjects,
 * strongSharedIdentifiers} (edge weight ≥ 0.9, as graph_connections counts them) and {@code sharedBankAccountSubjects}
 * (other subjects paying out to, or registered with, one of its bank accounts) and {@code linkedOpenedTogether} (linked
 * subjects first seen within {@value #NEW_TOGETHER_DAYS} days of the subject: identities assembled from shared parts
 * in one go). Three store reads: the subject's edges, its identifiers' edges, the linked subjects' first-seen times.
 */
final class IdentifierSharing {

  static final double STRONG = 0.9;
  /** Linked subjects first seen within this many days of the subject count as opened together. */
  static final int NEW_TOGETHER_DAYS = 7;
  /** Edge types that do not make a subject share an identifier (cases, documents, trading between subjects). */
  static final Set<String> NOT_SHARING = Set.of(Types.SUBJECT_OF, Types.MENTIONS, Types.BUYS_FROM);

  private final GraphStore store;
  private final int fanout;

  IdentifierSharing(GraphStore store, int fanout) {
    this.store = store;
    this.fanout = fanout;
  }

  Future<JsonObject> of(String id, Long asOf) {
    return store.incident(List.of(id), fanout, 0.0, asOf).compose(own -> {
      List<GraphStore.Edge> edges = own.getOrDefault(id, List.of()).stream().limit(fanout)
          .filter(e -> !NOT_SHARING.contains(e.type()) && EntityIds.typeOf(e.other(id)) != null).toList();
      List<String> idents = edges.stream().map(e -> e.other(id)).distinct().toList();
      if (idents.isEmpty()) {
        return Future.succeededFuture(reply(id, edges, Map.of(), Map.of()));
      }
      return store.incident(idents, fanout, 0.0, asOf).compose(byIdent -> {
        Set<String> subjects = new TreeSet<>(List.of(id));
        byIdent.forEach((ident, list) -> list.forEach(f -> {
          String o = f.other(ident);
          if (!NOT_SHARING.contains(f.type()) && EntityIds.typeOf(o) == null) {
            subjects.add(o);
          }
        }));
        return store.nodes(subjects, asOf).map(nodes -> reply(id, edges, byIdent, nodes));
      });
    });
  }

  private JsonObject reply(String id, List<GraphStore.Edge> edges, Map<String, List<GraphStore.Edge>> byIdent,
                           Map<String, GraphStore.Node> nodes) {
    JsonArray items = new JsonArray();
    Set<String> linked = new TreeSet<>();
    Set<String> bankShared = new TreeSet<>();
    int strong = 0;
    boolean truncated = false;
    for (GraphStore.Edge e : edges) {
      String ident = e.other(id);
      List<GraphStore.Edge> at = byIdent.getOrDefault(ident, List.of());
      truncated |= at.size() > fanout;
      Set<String> others = new TreeSet<>();
      for (GraphStore.Edge f : at.subList(0, Math.min(at.size(), fanout))) {
        String o = f.other(ident);
        if (!o.equals(id) && !NOT_SHARING.contains(f.type()) && EntityIds.typeOf(o) == null) {
          others.add(o);
        }
      }
      if (others.isEmpty()) {
        continue;
      }
      String type = EntityIds.typeOf(ident);
      linked.addAll(others);
      if (Types.BANK_ACCOUNT.equals(type)) {
        bankShared.addAll(others);
      }
      if (e.weight() >= STRONG) {
        strong++;
      }
      items.add(new JsonObject().put("kind", "relation").put("type", type).put("identifier", ident)
          .put("relation", e.type()).put("weight", e.weight()).put("sharedWith", new JsonArray(List.copyOf(others)))
          .put("cite", EntityIds.citeRelation(e.id())).put("entityCite", EntityIds.citeEntity(type, ident)));
    }
    // linked subjects that appeared within NEW_TOGETHER_DAYS of the subject itself: identity parts reused by accounts
    // opened together (synthetic identities, batches of promotion accounts); unknown first-seen counts as not new
    GraphStore.Node self = nodes.get(id);
    Set<String> together = new TreeSet<>();
    for (String o : linked) {
      GraphStore.Node n = nodes.get(o);
      if (self != null && n != null && Math.abs(n.firstSeen() - self.firstSeen()) <= NEW_TOGETHER_DAYS * 86_400_000L) {
        together.add(o);
      }
    }
    JsonObject signals = new JsonObject().put("sharedIdentifiers", items.size()).put("linkedSubjects", linked.size())
        .put("linkedOpenedTogether", together.size())
        .put("strongSharedIdentifiers", strong).put("sharedBankAccountSubjects", bankShared.size())
        .put("truncated", truncated ? 1 : 0);
    return new JsonObject().put("id", id).put("items", items).put("signals", signals);
  }
}
