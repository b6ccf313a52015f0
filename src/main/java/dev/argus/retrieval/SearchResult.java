package dev.argus.retrieval;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One ranked chunk of a search response: where it comes from, its fused score, and per retriever that found it
 * its 1-based rank and score. {@code parent} (the whole document) or {@code neighbours} (the chunks before and
 * after it) are set when the request asked for that expansion.
 */
public record SearchResult(String documentId, String namespace, String title, int chunkIndex, int chunkTotal,
                           String text, double score, JsonObject metadata, Map<Retriever, LegHit> retrievers,
                           Document parent, List<Chunk> neighbours) {

  public SearchResult {
    retrievers = retrievers.isEmpty() ? Map.of() : new EnumMap<>(retrievers);
    neighbours = neighbours == null ? null : List.copyOf(neighbours);
  }

  public static SearchResult of(FusedHit hit) {
    var c = hit.chunk();
    return new SearchResult(c.documentId(), c.namespace(), c.title(), c.chunkIndex(), c.chunkTotal(), c.text(),
        hit.score(), c.metadata(), hit.legs(), null, null);
  }

  public SearchResult withParent(Document document) {
    return new SearchResult(documentId, namespace, title, chunkIndex, chunkTotal, text, score, metadata, retrievers,
        document, neighbours);
  }

  public SearchResult withNeighbours(List<Chunk> chunks) {
    return new SearchResult(documentId, namespace, title, chunkIndex, chunkTotal, text, score, metadata, retrievers,
        parent, chunks);
  }

  public JsonObject toJson() {
    JsonObject legs = new JsonObject();
    retrievers.forEach((r, hit) -> legs.put(r.wireName(), hit.toJson()));
    JsonObject json = new JsonObject()
        .put("documentId", documentId)
        .put("namespace", namespace)
        .put("title", title)
        .put("chunkIndex", chunkIndex)
        .put("chunkTotal", chunkTotal)
        .put("text", text)
        .put("score", score)
        .put("metadata", metadata == null ? new JsonObject() : metadata)
        .put("retrievers", legs);
    if (parent != null) {
      json.put("parent", parent.toJson(true));
    }
    if (neighbours != null) {
      JsonArray array = new JsonArray();
      neighbours.forEach(n -> array.add(n.toJson()));
      json.put("neighbours", array);
    }
    return json;
  }

  public static SearchResult fromJson(JsonObject json) {
    Map<Retriever, LegHit> legs = new EnumMap<>(Retriever.class);
    JsonObject r = json.getJsonObject("retrievers", new JsonObject());
    for (String name : r.fieldNames()) {
      Retriever retriever = Retriever.parse(name);
      if (retriever != null && r.getValue(name) instanceof JsonObject hit) {
        legs.put(retriever, LegHit.fromJson(hit));
      }
    }
    JsonObject parent = json.getJsonObject("parent");
    List<Chunk> neighbours = null;
    JsonArray n = json.getJsonArray("neighbours");
    if (n != null) {
      neighbours = new ArrayList<>();
      for (Object o : n) {
        JsonObject c = (JsonObject) o;
        neighbours.add(new Chunk(c.getString("documentId"), c.getInteger("index"), c.getInteger("total"),
            c.getString("text"), null));
      }
    }
    return new SearchResult(json.getString("documentId"), json.getString("namespace"), json.getString("title"),
        json.getInteger("chunkIndex"), json.getInteger("chunkTotal"), json.getString("text"),
        json.getDouble("score"), json.getJsonObject("metadata", new JsonObject()), legs,
        parent == null ? null : Document.fromJson(parent), neighbours);
  }
}
