package dev.argus.citations;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * One validated citation: status, confidence and its two factors, depth of inference, the relation found (stored or
 * inferred, or null), the reasoning trace, and for anything not valid the {@code reason}.
 */
public record CitationResult(String citation, CitationStatus status, double confidence, double entityConfidence,
                             double relationConfidence, int depth, String relation, List<ReasoningStep> reasoning,
                             String reason) {

  public CitationResult {
    reasoning = List.copyOf(reasoning);
  }

  /** Excluded outright (malformed, missing, wrong type, timed out): confidence 0. */
  public static CitationResult excluded(String citation, List<ReasoningStep> steps, String reason) {
    List<ReasoningStep> all = new ArrayList<>(steps);
    if (all.isEmpty() || !"failure".equals(all.get(all.size() - 1).kind())) {
      all.add(ReasoningStep.of("failure", reason));
    }
    return new CitationResult(citation, CitationStatus.EXCLUDED, 0, 0, 0, 0, null, all, reason);
  }

  public JsonObject toJson() {
    JsonObject o = new JsonObject().put("citation", citation).put("status", status.wire())
        .put("confidence", confidence).put("entityConfidence", entityConfidence)
        .put("relationConfidence", relationConfidence).put("depth", depth)
        .put("reasoning", new JsonArray(reasoning.stream().map(ReasoningStep::toJson).toList()));
    if (relation != null) {
      o.put("relation", relation);
    }
    if (reason != null) {
      o.put("reason", reason);
    }
    return o;
  }

  public static CitationResult fromJson(JsonObject o) {
    List<ReasoningStep> steps = new ArrayList<>();
    for (Object s : o.getJsonArray("reasoning", new JsonArray())) {
      steps.add(ReasoningStep.fromJson((JsonObject) s));
    }
    return new CitationResult(o.getString("citation"), CitationStatus.fromWire(o.getString("status")),
        o.getDouble("confidence", 0d), o.getDouble("entityConfidence", 0d), o.getDouble("relationConfidence", 0d),
        o.getInteger("depth", 0), o.getString("relation"), steps, o.getString("reason"));
  }

  /** The reply of {@code argus.graph.citations.validate}: {@code {results: [...], rulesVersion}}. */
  public static JsonObject reply(List<CitationResult> results, String rulesVersion) {
    return new JsonObject().put("results", new JsonArray(results.stream().map(CitationResult::toJson).toList()))
        .put("rulesVersion", rulesVersion);
  }
}
