package dev.argus.runs;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One agent run, as checkpointed after every phase: the input, where it is ({@code status}, {@code nextPhase}),
 * each phase's latest output ({@code phases.<name> = {output, path: "llm"|"rules", durationMs, ...}}), the evidence
 * items gathered by tools, the chain of thought, the validated citations, the verification, the final result,
 * timings, token usage, loop counters and the notes about fallbacks taken.
 *
 * <p>The JSON-valued parts are owned by the coordinator while the run is live (one context mutates them); a copy
 * goes over the bus and into the store.
 */
public record Run(String runId, String profile, RunInput input, RunStatus status, String nextPhase, JsonObject nextArgs,
                  int loopCount,
                  int replans, JsonObject phases, JsonArray evidence, JsonArray chainOfThought, JsonArray citations,
                  JsonObject verification, JsonObject result, JsonObject timings, JsonObject usage,
                  JsonArray fallbacks, String error, long createdAtMs, long updatedAtMs) {

  public static Run start(String runId, String profile, RunInput input, long now) {
    return new Run(runId, profile, input, RunStatus.RUNNING, "think", new JsonObject(), 0, 0, new JsonObject(), new JsonArray(),
        new JsonArray(), new JsonArray(), new JsonObject(), new JsonObject(), new JsonObject(),
        new JsonObject().put("promptTokens", 0).put("completionTokens", 0), new JsonArray(), null, now, now);
  }

  public Run withProgress(RunStatus status, String nextPhase, int loopCount, int replans, String error, long now) {
    return withProgress(status, nextPhase, new JsonObject(), loopCount, replans, error, now);
  }

  public Run withProgress(RunStatus status, String nextPhase, JsonObject nextArgs, int loopCount, int replans,
                          String error, long now) {
    return new Run(runId, profile, input, status, nextPhase, nextArgs == null ? new JsonObject() : nextArgs, loopCount, replans, phases, evidence, chainOfThought,
        citations, verification, result, timings, usage, fallbacks, error, createdAtMs, now);
  }

  public Run withOutcome(JsonArray citations, JsonObject verification, JsonObject result) {
    return new Run(runId, profile, input, status, nextPhase, nextArgs, loopCount, replans, phases, evidence,
        chainOfThought, citations, verification, result, timings, usage, fallbacks, error, createdAtMs, updatedAtMs);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("runId", runId)
        .put("profile", profile)
        .put("input", input.toJson())
        .put("status", status.wire())
        .put("nextPhase", nextPhase)
        .put("nextArgs", nextArgs)
        .put("loopCount", loopCount)
        .put("replans", replans)
        .put("phases", phases)
        .put("evidence", evidence)
        .put("chainOfThought", chainOfThought)
        .put("citations", citations)
        .put("verification", verification)
        .put("result", result)
        .put("timings", timings)
        .put("usage", usage)
        .put("fallbacks", fallbacks)
        .put("error", error)
        .put("createdAt", createdAtMs)
        .put("updatedAt", updatedAtMs);
  }

  public static Run fromJson(JsonObject j) {
    return new Run(j.getString("runId"), j.getString("profile"), RunInput.fromJson(j.getJsonObject("input")),
        RunStatus.fromWire(j.getString("status")), j.getString("nextPhase"), obj(j, "nextArgs"),
        j.getInteger("loopCount", 0),
        j.getInteger("replans", 0), obj(j, "phases"), arr(j, "evidence"), arr(j, "chainOfThought"),
        arr(j, "citations"), obj(j, "verification"), obj(j, "result"), obj(j, "timings"), obj(j, "usage"),
        arr(j, "fallbacks"), j.getString("error"), j.getLong("createdAt", 0L), j.getLong("updatedAt", 0L));
  }

  private static JsonObject obj(JsonObject j, String key) {
    JsonObject o = j.getJsonObject(key);
    return o == null ? new JsonObject() : o;
  }

  private static JsonArray arr(JsonObject j, String key) {
    JsonArray a = j.getJsonArray(key);
    return a == null ? new JsonArray() : a;
  }
}
