package dev.argus.agent.phases;

import dev.argus.llm.Usage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What a phase returns to the coordinator: its output, which path produced it ({@code llm} or {@code rules}), LLM
 * token usage, notes about fallbacks taken, one line for the chain of thought, and its own duration.
 */
public record PhaseResult(JsonObject output, String path, Usage usage, List<String> notes, String thought,
                          long durationMs) {

  public static final String LLM = "llm";
  public static final String RULES = "rules";

  public PhaseResult {
    usage = usage == null ? Usage.NONE : usage;
    notes = notes == null ? List.of() : List.copyOf(notes);
  }

  public static PhaseResult rules(JsonObject output, String thought) {
    return new PhaseResult(output, RULES, Usage.NONE, List.of(), thought, 0);
  }

  public static PhaseResult llm(JsonObject output, Usage usage, String thought) {
    return new PhaseResult(output, LLM, usage, List.of(), thought, 0);
  }

  public PhaseResult withNote(String note) {
    List<String> n = new java.util.ArrayList<>(notes);
    n.add(note);
    return new PhaseResult(output, path, usage, n, thought, durationMs);
  }

  public PhaseResult withDuration(long ms) {
    return new PhaseResult(output, path, usage, notes, thought, ms);
  }

  public JsonObject toJson() {
    return new JsonObject().put("output", output).put("path", path)
        .put("usage", new JsonObject().put("promptTokens", usage.promptTokens()).put("completionTokens", usage.completionTokens()))
        .put("notes", new JsonArray(notes)).put("thought", thought).put("durationMs", durationMs);
  }

  public static PhaseResult fromJson(JsonObject j) {
    JsonObject u = j.getJsonObject("usage", new JsonObject());
    return new PhaseResult(j.getJsonObject("output", new JsonObject()), j.getString("path"),
        new Usage(u.getInteger("promptTokens", 0), u.getInteger("completionTokens", 0)),
        j.getJsonArray("notes", new JsonArray()).stream().map(String::valueOf).toList(), j.getString("thought"),
        j.getLong("durationMs", 0L));
  }
}
