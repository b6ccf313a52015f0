package dev.argus.records;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Published on {@link dev.argus.bus.Addresses#RECORDS_CHANGED} after each committed batch that changed something:
 * {@code {change: "upsert"|"delete", kinds: [...], ids: [...]}} (kinds distinct, ids in batch order).
 */
public record RecordsChanged(String change, List<String> kinds, List<String> ids) {

  public static final String UPSERT = "upsert";
  public static final String DELETE = "delete";

  public JsonObject toJson() {
    return new JsonObject().put("change", change).put("kinds", new JsonArray(List.copyOf(kinds)))
        .put("ids", new JsonArray(List.copyOf(ids)));
  }

  public static RecordsChanged fromJson(JsonObject json) {
    return new RecordsChanged(json.getString("change"),
        json.getJsonArray("kinds", new JsonArray()).stream().map(String::valueOf).toList(),
        json.getJsonArray("ids", new JsonArray()).stream().map(String::valueOf).toList());
  }
}
