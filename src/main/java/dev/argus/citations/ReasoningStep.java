package dev.argus.citations;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * One step of a citation's reasoning trace: {@code kind} (source, entity, relation, rule, transitive, terminal,
 * failure), a sentence, the rule applied (or null) and the graph ids involved.
 */
public record ReasoningStep(String kind, String text, String rule, List<String> ids) {

  public ReasoningStep {
    ids = List.copyOf(ids);
  }

  public static ReasoningStep of(String kind, String text, String... ids) {
    return new ReasoningStep(kind, text, null, List.of(ids));
  }

  public JsonObject toJson() {
    JsonObject o = new JsonObject().put("kind", kind).put("text", text);
    if (rule != null) {
      o.put("rule", rule);
    }
    return o.put("ids", new JsonArray(new ArrayList<Object>(ids)));
  }

  public static ReasoningStep fromJson(JsonObject o) {
    List<String> ids = new ArrayList<>();
    for (Object id : o.getJsonArray("ids", new JsonArray())) {
      ids.add(String.valueOf(id));
    }
    return new ReasoningStep(o.getString("kind"), o.getString("text"), o.getString("rule"), ids);
  }
}
