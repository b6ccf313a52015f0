package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code get_document}: the parent document of a chunk, with its chunk list ({@link Addresses#DOCUMENT_GET}), served by
 * the {@code DocumentsVerticle}; a missing document fails with its 404.
 */
public final class GetDocumentTool implements Tool {

  private static final JsonObject SCHEMA = new JsonObject("""
      {"type": "object", "additionalProperties": false, "required": ["id"],
       "properties": {"id": {"type": "string", "minLength": 1, "maxLength": 512}}}
      """);

  private final Vertx vertx;
  private final long timeoutMs;

  public GetDocumentTool(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
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
            new DeliveryOptions().setSendTimeout(timeoutMs)).map(m -> m.body());
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return new JsonObject().put("id", result.getString("id")).put("title", result.getString("title"))
        .put("chunks", result.getJsonArray("chunks", new JsonArray()).size());
  }
}
