package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code get_chunk_neighbours}: the chunks around one chunk of a document ({@link Addresses#CHUNK_NEIGHBOURS}). When no
 * verticle serves that address in this process, it reads the {@link KnowledgeStore} directly (same reply shape).
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
  private final KnowledgeStore store;
  private final long timeoutMs;

  public ChunkNeighboursTool(Vertx vertx, KnowledgeStore store, long timeoutMs) {
    this.vertx = vertx;
    this.store = store;
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
            new DeliveryOptions().setSendTimeout(timeoutMs)).map(m -> m.body())
        .recover(err -> err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS && store != null
            ? fromStore(req) : Future.failedFuture(err));
  }

  private Future<JsonObject> fromStore(JsonObject req) {
    int index = req.getInteger("index");
    return store.chunks(req.getString("documentId"), Math.max(0, index - req.getInteger("before")),
        index + req.getInteger("after")).map(chunks -> {
          JsonArray arr = new JsonArray();
          for (Chunk c : chunks) {
            arr.add(c.toJson());
          }
          return new JsonObject().put("chunks", arr);
        });
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return new JsonObject().put("chunks", result.getJsonArray("chunks", new JsonArray()).size());
  }
}
