package dev.argus.agent.tools;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A tool that asks one bus address and returns its {@code items} as citable evidence: each item gets
 * {@code cite: "[source:<tool>:<index>]"} (its index in the result); items may also name entities
 * ({@code [entity:TYPE:ID]}) that a decision can cite. The address's owner computes the items; this adapter only
 * forwards the validated parameters and labels the reply.
 */
public final class EvidenceTool implements Tool {

  private final Vertx vertx;
  private final String name;
  private final String description;
  private final JsonObject schema;
  private final String address;
  private final long timeoutMs;

  public EvidenceTool(Vertx vertx, String name, String description, JsonObject schema, String address, long timeoutMs) {
    this.vertx = vertx;
    this.name = name;
    this.description = description;
    this.schema = schema;
    this.address = address;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public JsonObject schema() {
    return schema.copy();
  }

  @Override
  public Future<JsonObject> execute(JsonObject params) {
    return vertx.eventBus().<JsonObject>request(address, params, new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(m -> cite(name, m.body()));
  }

  /** Labels every item of {@code result.items} with its citation key. */
  static JsonObject cite(String tool, JsonObject result) {
    JsonArray items = result.getJsonArray("items", new JsonArray());
    for (int i = 0; i < items.size(); i++) {
      items.getJsonObject(i).put("cite", "[source:" + tool + ":" + i + "]");
    }
    return result;
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    JsonArray items = result.getJsonArray("items", new JsonArray());
    JsonArray kinds = new JsonArray();
    items.forEach(o -> {
      JsonObject item = (JsonObject) o;
      kinds.add(item.getString("type", item.getString("signal")));
    });
    return new JsonObject().put("items", items.size()).put("kinds", kinds);
  }
}
