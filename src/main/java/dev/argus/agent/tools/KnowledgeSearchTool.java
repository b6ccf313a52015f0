package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** {@code knowledge_search}: the hybrid retriever ({@link Addresses#RETRIEVE_SEARCH}) with metadata filters. */
public final class KnowledgeSearchTool implements Tool {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type": "object", "additionalProperties": false, "required": ["query"],
       "properties": {
         "query": {"type": "string", "minLength": 1, "maxLength": 2000},
         "topK": {"type": "integer", "minimum": 1, "maximum": 50},
         "namespace": {"type": "string", "minLength": 1, "maxLength": 200},
         "filters": {"type": "object"},
         "retrievers": {"type": "array", "items": {"enum": ["vector", "keyword", "trigram"]}, "minItems": 1},
         "expand": {"enum": ["none", "parent", "neighbours"]},
         "mmr": {"type": "boolean"},
         "selfQuery": {"type": "boolean"}
       }}
      """);

  private final Vertx vertx;
  private final long timeoutMs;

  public KnowledgeSearchTool(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return "knowledge_search";
  }

  @Override
  public String description() {
    return "Searches the knowledge base (dense vectors, keywords and trigrams, fused) and returns the best chunks "
        + "with their document id, chunk index, title and text. Filters restrict metadata, e.g. {\"category\": \"policy\"}.";
  }

  @Override
  public JsonObject schema() {
    return SCHEMA.copy();
  }

  @Override
  public Future<JsonObject> execute(JsonObject params) {
    return vertx.eventBus().<JsonObject>request(Addresses.RETRIEVE_SEARCH, params,
        new DeliveryOptions().setSendTimeout(timeoutMs)).map(m -> m.body());
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    JsonArray results = result.getJsonArray("results", new JsonArray());
    JsonArray top = new JsonArray();
    for (int i = 0; i < Math.min(3, results.size()); i++) {
      JsonObject r = results.getJsonObject(i);
      top.add(new JsonObject().put("documentId", r.getString("documentId")).put("chunkIndex", r.getInteger("chunkIndex"))
          .put("title", r.getString("title")));
    }
    return new JsonObject().put("hits", results.size()).put("top", top);
  }
}
