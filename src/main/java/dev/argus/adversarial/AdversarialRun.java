package dev.argus.adversarial;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * One adversarial run as stored and served: its request ({@code suite}, {@code size}, {@code seed}), its status
 * ({@code running}, {@code completed}, {@code failed}), the report once completed and the error once failed.
 * {@code suiteKey} (the type names in the enum's order) is what "the same suite" means when a baseline is looked up.
 */
public record AdversarialRun(String executionId, List<ScenarioType> suite, int size, long seed, String status,
                             JsonObject report, String error, long createdAt, Long finishedAt) {

  public static final String RUNNING = "running";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";

  public AdversarialRun {
    suite = suite.stream().distinct().sorted().toList(); // one order (the enum's), so one suite has one key
  }

  public String suiteKey() {
    return String.join(",", suite.stream().map(ScenarioType::wire).toList());
  }

  public AdversarialRun completed(JsonObject report, long now) {
    return new AdversarialRun(executionId, suite, size, seed, COMPLETED, report, null, createdAt, now);
  }

  public AdversarialRun failed(String error, long now) {
    return new AdversarialRun(executionId, suite, size, seed, FAILED, null, error, createdAt, now);
  }

  public JsonObject toJson() {
    JsonArray types = new JsonArray();
    suite.forEach(t -> types.add(t.wire()));
    return new JsonObject().put("executionId", executionId).put("suite", types).put("size", size).put("seed", seed)
        .put("status", status).put("report", report).put("error", error).put("createdAt", createdAt)
        .put("finishedAt", finishedAt);
  }

  public static List<ScenarioType> suiteOf(String key) {
    return key.isEmpty() ? List.of() : java.util.Arrays.stream(key.split(","))
        .map(s -> ScenarioType.fromWire(s).orElseThrow(() -> new IllegalStateException("unknown type " + s))).toList();
  }
}
