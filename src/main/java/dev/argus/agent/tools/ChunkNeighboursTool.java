package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code get_chunk_neighbours}: the chunks around one chunk of a document ({@link Addresses#CHUNK_NEIGHBOURS}),
 * served by the {@code DocumentsVerticle}.
 */
public final class ChunkNeighboursTool implements Tool {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type": "object", "additionalProperties": false, "required": ["documentId", "index"],
       "properties": {
         "documentId": {"type": "string", "minLength": 1, "maxLength": 512},
         "index": {"type": "integer", "minimum": 0},
         "before": {"type": "integer", "minimum": 0, "maximum": 5},
         "after": {"type": "integer", "minimum": 0, "maximum": 5}
       }}
      """);

  private final Vertx vertx;
  private final long timeoutMs;

  public ChunkNeighboursTool(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return "get_chunk_neighbours";
  }

  @Override
  public String description() {
    return "Returns the chunks just before and after one chunk of a document, for more context around a hit.";
  }

  @Override
  public JsonObject schema() {
    return SCHEMA.copy();
  }

  @Override
  public Future<JsonObject> execute(JsonObject params) {
    JsonObject req = new JsonObject().put("documentId", params.getString("documentId"))
        .put("index", params.getInteger("index")).put("before", params.getInteger("before", 1))
        .put("after", params.getInteger("after", 1));
    return vertx.eventBus().<JsonObject>request(Addresses.CHUNK_NEIGHBOURS, req,
            new DeliveryOptions().setSendTimeout(timeoutMs)).map(m -> m.body().put("documentId", req.getString("documentId")));
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return new JsonObject().put("chunks", result.getJsonArray("chunks", new JsonArray()).size());
  }
}
