package dev.argus.agent.compose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What Reflect found: per sentence support, citations to chunks that are not in the evidence, contradictions and
 * confidence the evidence does not justify; the decision ({@code ship}, {@code revise}, {@code loop}), the revised
 * answer, its validated citations, whether it is verified and a confidence in [0,1].
 */
public record Verification(String decision, String answer, List<SentenceCheck> sentences, List<String> fabricated,
                           List<String> contradictions, List<String> overconfident, boolean verified,
                           double confidence, JsonArray citations, String path) {

  public static final String SHIP = "ship";
  public static final String REVISE = "revise";
  public static final String LOOP = "loop";

  /** One checked sentence: support is the share of its content tokens found in the evidence it cites. */
  public record SentenceCheck(String text, List<String> citations, double support, boolean supported, String reason) {
    JsonObject toJson() {
      return new JsonObject().put("text", text).put("citations", new JsonArray(citations))
          .put("support", Math.round(support * 1000) / 1000.0).put("supported", supported).put("reason", reason);
    }
  }

  public Verification withPath(String p) {
    return new Verification(decision, answer, sentences, fabricated, contradictions, overconfident, verified,
        confidence, citations, p);
  }

  public JsonObject toJson() {
    JsonArray s = new JsonArray();
    sentences.forEach(c -> s.add(c.toJson()));
    return new JsonObject().put("decision", decision).put("answer", answer).put("sentences", s)
        .put("fabricatedCitations", new JsonArray(fabricated)).put("contradictions", new JsonArray(contradictions))
        .put("overconfident", new JsonArray(overconfident)).put("verified", verified)
        .put("confidence", Math.round(confidence * 1000) / 1000.0).put("citations", citations).put("path", path);
  }
}
