package dev.argus.decide.phases;

import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.PolicySet;
import dev.argus.decide.model.ScoringModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The state of one decision run, passed from phase to phase (used on one context at a time, no locking): the subject,
 * the model and policies in force, what Think, Plan and Act produced, the phase steps for the trace, timings and
 * which path (LLM or rules) each phase took with the prompt and model versions.
 */
public final class DecisionContext {

  public final DecisionProfile profile;
  public final ScoringModel model;
  public final PolicySet policies;
  public final String runId;
  public final String decisionId;
  public final DecisionEvents events;
  public final long startedNs = System.nanoTime();
  public final long createdAtMs = System.currentTimeMillis();

  public String sellerId;
  public String transactionId;
  /** The buyer of the transaction under investigation (null for onboarding or a transaction without one). */
  public String buyerId;
  public String subjectId;
  public String asOf;
  public JsonObject transaction;
  public Double amount;
  public final JsonObject facts = new JsonObject();
  public List<String> hypotheses = List.of();
  public final List<String> entities = new ArrayList<>();
  public List<JsonObject> calls = List.of();
  public final JsonArray evidence = new JsonArray();
  public int replans;
  public final JsonArray steps = new JsonArray();
  public final JsonObject timings = new JsonObject();
  public final JsonObject llm = new JsonObject().put("paths", new JsonObject()).put("prompts", new JsonObject());
  public JsonObject llmAdjustment;

  public DecisionContext(DecisionProfile profile, ScoringModel model, PolicySet policies, String runId, String decisionId,
                  DecisionEvents events) {
    this.profile = profile;
    this.model = model;
    this.policies = policies;
    this.runId = runId;
    this.decisionId = decisionId;
    this.events = events;
  }

  /** Records one phase step for the trace and its duration in {@code timings.phases}. */
  public void step(String phase, String path, long startNs, JsonObject output, String thought) {
    long ms = (System.nanoTime() - startNs) / 1_000_000;
    steps.add(new JsonObject().put("phase", phase).put("path", path).put("durationMs", ms).put("thought", thought)
        .put("output", output));
    JsonObject phases = timings.getJsonObject("phasesMs", new JsonObject());
    phases.put(phase, phases.getLong(phase, 0L) + ms);
    timings.put("phasesMs", phases);
    llm.getJsonObject("paths").put(phase, path);
  }

  public long elapsedMs() {
    return (System.nanoTime() - startedNs) / 1_000_000;
  }
}
