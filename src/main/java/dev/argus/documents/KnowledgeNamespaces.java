package dev.argus.documents;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The reply of {@code argus.knowledge.namespaces}: the namespaces that hold documents, sorted. */
public record KnowledgeNamespaces(List<String> namespaces) {

  public KnowledgeNamespaces {
    namespaces = List.copyOf(namespaces);
  }

  public JsonObject toJson() {
    return new JsonObject().put("namespaces", new JsonArray(namespaces));
  }

  public static KnowledgeNamespaces fromJson(JsonObject json) {
    return new KnowledgeNamespaces(json.getJsonArray("namespaces", new JsonArray()).stream().map(String::valueOf)
        .toList());
  }
}
