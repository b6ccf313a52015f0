package dev.argus.agent.compose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** A composed answer: its sentences, each with the evidence chunks it cites, and the full text with markers. */
public record Composition(List<Sentence> sentences, int candidates, int instructionLike) {

  /** One answer sentence, the keys ({@code documentId:chunkIndex}) of the chunks it cites and its section heading. */
  public record Sentence(String text, List<String> citations, double score, String section) {

    public Sentence(String text, List<String> citations, double score) {
      this(text, citations, score, "");
    }

    public String withMarkers() {
      StringBuilder sb = new StringBuilder(text);
      for (String key : citations) {
        int colon = key.lastIndexOf(':');
        sb.append(" [cite:").append(key, 0, colon).append(':').append(key.substring(colon + 1)).append(']');
      }
      return sb.toString();
    }
  }

  public String answer() {
    StringBuilder sb = new StringBuilder();
    for (Sentence s : sentences) {
      if (!sb.isEmpty()) {
        sb.append(' ');
      }
      sb.append(s.withMarkers());
    }
    return sb.toString();
  }

  public JsonObject toJson() {
    JsonArray arr = new JsonArray();
    for (Sentence s : sentences) {
      arr.add(new JsonObject().put("text", s.text()).put("citations", new JsonArray(s.citations()))
          .put("score", Math.round(s.score() * 1000) / 1000.0).put("section", s.section()));
    }
    return new JsonObject().put("answer", answer()).put("sentences", arr).put("candidates", candidates)
        .put("instructionLike", instructionLike);
  }
}
