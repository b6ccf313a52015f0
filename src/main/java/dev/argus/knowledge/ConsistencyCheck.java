package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

/** One check of a knowledge store's consistency: {@code {name, ok, detail}} (for {@code /api/health/deep}). */
public record ConsistencyCheck(String name, boolean ok, String detail) {

  public JsonObject toJson() {
    return new JsonObject().put("name", name).put("ok", ok).put("detail", detail);
  }
}
