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
 * {@code get_document}: the parent document of a chunk, with its chunk list ({@link Addresses#DOCUMENT_GET}). When no
 * verticle serves that address in this process, it reads the {@link KnowledgeStore} directly (same reply shape).
 */
public final class GetDocumentTool implements Tool {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type": "object", "additionalProperties": false, "required": ["id"],
       "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 512}}}
      """);

  private final Vertx vertx;
  private final KnowledgeStore store;
  private final long timeoutMs;

  public GetDocumentTool(Vertx vertx, KnowledgeStore store, long timeoutMs) {
    this.vertx = vertx;
    this.store = store;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return "get_document";
  }

  @Override
  public String description() {
    return "Returns a whole document of the knowledge base (title, metadata, text and its chunks) by id.";
  }

  @Override
  public JsonObject schema() {
    return SCHEMA.copy();
  }

  @Override
  public Future<JsonObject> execute(JsonObject params) {
    String id = params.getString("id");
    return vertx.eventBus().<JsonObject>request(Addresses.DOCUMENT_GET, new JsonObject().put("id", id),
            new DeliveryOptions().setSendTimeout(timeoutMs)).map(m -> m.body())
        .recover(err -> err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS && store != null
            ? fromStore(id) : Future.failedFuture(err));
  }

  private Future<JsonObject> fromStore(String id) {
    return store.document(id).compose(doc -> {
      if (doc.isEmpty()) {
        return Future.failedFuture(new ToolError("no document '" + id + "'", false));
      }
      return store.chunks(id, 0, Integer.MAX_VALUE).map(chunks -> {
        JsonArray arr = new JsonArray();
        for (Chunk c : chunks) {
          arr.add(new JsonObject().put("index", c.index()).put("total", c.total()).put("text", c.text()));
        }
        return doc.get().toJson(true).put("chunks", arr);
      });
    });
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return new JsonObject().put("id", result.getString("id")).put("title", result.getString("title"))
        .put("chunks", result.getJsonArray("chunks", new JsonArray()).size());
  }
}
