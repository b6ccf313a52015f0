package dev.argus.eval.judge;

import dev.argus.eval.score.Metric;
import io.vertx.core.json.JsonObject;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the LLM judge said about one answer: {@code status} {@code ok} (well-formed), {@code repaired} (usable after
 * repair), {@code skipped} (unusable, or no LLM; {@code reason} says why); the scores it gave (0..1), and for each
 * score it did not give, why.
 */
public record JudgeVerdict(String status, Map<Metric, Double> scores, JsonObject missing, String reason) {

  public JudgeVerdict {
    EnumMap<Metric, Double> copy = new EnumMap<>(Metric.class);
    copy.putAll(scores);
    scores = Collections.unmodifiableMap(copy);
    missing = missing == null ? new JsonObject() : missing;
  }

  public static JudgeVerdict skipped(String reason) {
    return new JudgeVerdict("skipped", Map.of(), new JsonObject(), reason);
  }

  public JsonObject toJson() {
    JsonObject s = new JsonObject();
    scores.forEach((k, v) -> s.put(k.wire(), v));
    return new JsonObject().put("status", status).put("scores", s).put("missing", missing).put("reason", reason);
  }
}
