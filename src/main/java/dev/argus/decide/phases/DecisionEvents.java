package dev.argus.decide.phases;

import dev.argus.bus.Addresses;
import dev.argus.runs.RunEvent;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The events of one decision run, in the chat runs' event schema ({@link RunEvent}: {@code run, phase, tool_call,
 * tool_result, agent_log, final, error}) plus {@code reflection} and {@code decision}: numbered from 1 and published on
 * {@code argus.run.<runId>} (the SSE route relays them). The run's events are kept (bounded) as the decision's trace.
 */
public final class DecisionEvents {

  public static final String REFLECTION = "reflection";
  public static final String DECISION = "decision";
  static final int MAX_KEPT = 500;
  /** At most this many events of one run are recorded in the run store (a decision has a few dozen). */
  static final int MAX_RECORDED = 2_000;

  private final Vertx vertx;
  private final String runId;
  private final boolean publish;
  private final JsonArray kept = new JsonArray();
  private final java.util.List<RunEvent> recorded = new java.util.ArrayList<>();
  private long next = 1;

  public DecisionEvents(Vertx vertx, String runId, boolean publish) {
    this.vertx = vertx;
    this.runId = runId;
    this.publish = publish;
  }

  public void emit(String type, JsonObject data) {
    RunEvent ev = new RunEvent(runId, next++, type, data, System.currentTimeMillis());
    if (recorded.size() < MAX_RECORDED) {
      recorded.add(ev);
    }
    if (kept.size() < MAX_KEPT && !DECISION.equals(type) && !RunEvent.FINAL.equals(type)) {
      kept.add(new JsonObject().put("id", ev.id()).put("type", type).put("data", data).put("at", ev.createdAtMs()));
    }
    if (publish) {
      vertx.eventBus().publish(Addresses.runEvents(runId), ev.toJson());
    }
  }

  public void log(String phase, String message, boolean fallback) {
    emit(RunEvent.AGENT_LOG, new JsonObject().put("phase", phase).put("message", message).put("fallback", fallback));
  }

  /** Every event so far, as published (for the run store). */
  public java.util.List<RunEvent> recorded() {
    return java.util.List.copyOf(recorded);
  }

  /** The events so far (the decision's trace). */
  public JsonArray trace() {
    return kept.copy();
  }

  public String runId() {
    return runId;
  }
}
