package dev.argus.documents;

import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * One namespace of the knowledge base and how many documents it holds, as listed by {@code GET /api/namespaces}
 * (bus {@link dev.argus.bus.Addresses#KNOWLEDGE_NAMESPACE_COUNTS}): {@code {namespaces: [{name, documents}], total},
 * sorted by name, only namespaces that hold documents. ({@link KnowledgeNamespaces} is the names alone, for the
 * retrieval's namespace check.)
 */
public record NamespaceCount(String name, long documents) {

  /** At most this many namespaces are listed (sorted by name); {@code total} still counts them all. */
  public static final int MAX_LISTED = 1000;

  public JsonObject toJson() {
    return new JsonObject().put("name", name).put("documents", documents);
  }

  public static NamespaceCount fromJson(JsonObject json) {
    return new NamespaceCount(json.getString("name"), json.getLong("documents", 0L));
  }

  /**
   * The store's namespaces with their document counts: one count per namespace (the store's paged listing with
   * limit 1), run concurrently on the store's pool. Namespaces are few (teams, tenants), so this costs a handful
   * of indexed counts; a namespace emptied meanwhile is left out.
   */
  static Future<JsonObject> list(KnowledgeStore store) {
    return store.namespaces().compose(names -> {
      List<String> sorted = names.stream().sorted().limit(MAX_LISTED).toList();
      List<Future<Long>> counts = new ArrayList<>(sorted.size());
      for (String ns : sorted) {
        counts.add(store.list(ns, 0, 1).map(page -> page.total()));
      }
      return Future.all(counts).map(all -> {
        JsonArray out = new JsonArray();
        for (int i = 0; i < sorted.size(); i++) {
          long n = counts.get(i).result();
          if (n > 0) {
            out.add(new NamespaceCount(sorted.get(i), n).toJson());
          }
        }
        return new JsonObject().put("namespaces", out).put("total", names.size());
      });
    });
  }
}
