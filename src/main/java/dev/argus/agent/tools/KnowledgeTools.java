package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import dev.argus.documents.DocumentRef;
import dev.argus.documents.NeighboursRequest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** The knowledge base's tools, each one request on the bus ({@link BusTool}). */
public final class KnowledgeTools {

  /** {@code knowledge_search}: the hybrid retriever ({@link Addresses#RETRIEVE_SEARCH}) with metadata filters. */
  static final BusTool.Spec KNOWLEDGE_SEARCH = new BusTool.Spec("knowledge_search",
      "Searches the knowledge base (dense vectors, keywords and trigrams, fused) and returns the best chunks "
          + "with their document id, chunk index, title and text. Filters restrict metadata, e.g. {\"category\": \"policy\"}.",
      new JsonObject("""
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
          """),
      Addresses.RETRIEVE_SEARCH,
      params -> params,
      (request, reply) -> reply,
      KnowledgeTools::searchSummary);

  /**
   * {@code get_document}: the parent document of a chunk, with its chunk list ({@link Addresses#DOCUMENT_GET}),
   * served by the {@code DocumentsVerticle}; a missing document fails with its 404.
   */
  static final BusTool.Spec GET_DOCUMENT = new BusTool.Spec("get_document",
      "Returns a whole document of the knowledge base (title, metadata, text and its chunks) by id.",
      new JsonObject("""
          {"type": "object", "additionalProperties": false, "required": ["id"],
           "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 512}}}
          """),
      Addresses.DOCUMENT_GET,
      params -> new DocumentRef(params.getString("id")).toJson(),
      (request, reply) -> reply,
      result -> new JsonObject().put("id", result.getString("id")).put("title", result.getString("title"))
          .put("chunks", result.getJsonArray("chunks", new JsonArray()).size()));

  /**
   * {@code get_chunk_neighbours}: the chunks around one chunk of a document ({@link Addresses#CHUNK_NEIGHBOURS}),
   * served by the {@code DocumentsVerticle}; one chunk on each side unless asked otherwise.
   */
  static final BusTool.Spec CHUNK_NEIGHBOURS = new BusTool.Spec("get_chunk_neighbours",
      "Returns the chunks just before and after one chunk of a document, for more context around a hit.",
      new JsonObject("""
          {"type": "object", "additionalProperties": false, "required": ["documentId", "index"],
           "properties": {
             "documentId": {"type": "string", "minLength": 1, "maxLength": 512},
             "index": {"type": "integer", "minimum": 0},
             "before": {"type": "integer", "minimum": 0, "maximum": 5},
             "after": {"type": "integer", "minimum": 0, "maximum": 5}
           }}
          """),
      Addresses.CHUNK_NEIGHBOURS,
      params -> NeighboursRequest.fromJson(params).toJson(),
      (request, reply) -> reply.put("documentId", request.getString("documentId")),
      result -> new JsonObject().put("chunks", result.getJsonArray("chunks", new JsonArray()).size()));

  private KnowledgeTools() {
  }

  /** The knowledge tools: search, whole document, neighbouring chunks; each request within {@code timeoutMs}. */
  public static List<Tool> all(Vertx vertx, long timeoutMs) {
    return List.of(new BusTool(vertx, KNOWLEDGE_SEARCH, timeoutMs), new BusTool(vertx, GET_DOCUMENT, timeoutMs),
        new BusTool(vertx, CHUNK_NEIGHBOURS, timeoutMs));
  }

  /** The hit count and the first three hits' document, chunk and title. */
  private static JsonObject searchSummary(JsonObject result) {
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
