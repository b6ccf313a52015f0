package dev.argus.decide.phases;

import dev.argus.agent.phases.Phase;
import dev.argus.agent.tools.EvidenceItem;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Act: the planned calls in parallel through the agent's {@link ToolExecutor} (schema check, timeout, retry, breaker
 * per tool). Every call becomes an evidence item with the next stable index. A tool that is not registered (e.g. a
 * graph tool not deployed yet) is a failed call — it drives review through Reflect, never approval.
 * Output {@code {planned, plannedFailed}} feeds {@code PhaseTransitions} (re-plan when more than half failed).
 */
public final class ActStep {

  private final ToolExecutor executor;
  private final Set<String> registered;

  public ActStep(ToolExecutor executor, Set<String> registered) {
    this.executor = executor;
    this.registered = Set.copyOf(registered);
  }

  public Future<JsonObject> run(DecisionContext ctx) {
    long start = System.nanoTime();
    ThinkStep.phase(ctx, Phase.ACT, "start");
    int base = ctx.evidence.size();
    List<Future<EvidenceItem>> running = new ArrayList<>();
    for (int i = 0; i < ctx.calls.size(); i++) {
      int index = base + i;
      JsonObject c = ctx.calls.get(i);
      String tool = c.getString("tool");
      JsonObject params = c.getJsonObject("params");
      ctx.events.emit(RunEvent.TOOL_CALL, new JsonObject().put("index", index).put("tool", tool).put("params", params));
      Future<EvidenceItem> call = registered.contains(tool) ? executor.call(index, tool, params)
          : Future.succeededFuture(new EvidenceItem(index, tool, params, false, null,
          "tool '" + tool + "' is not registered", 0, 0));
      running.add(call.onSuccess(e -> ctx.events.emit(RunEvent.TOOL_RESULT, new JsonObject().put("index", index)
          .put("tool", tool).put("success", e.success()).put("durationMs", e.durationMs())
          .put("attempts", e.attempts()).put("error", e.error()))));
    }
    return Future.all(running).map(all -> {
      int failed = 0;
      for (int i = 0; i < running.size(); i++) {
        EvidenceItem e = all.resultAt(i);
        ctx.evidence.add(e.toJson());
        if (!e.success()) {
          failed++;
        }
      }
      JsonObject out = new JsonObject().put("planned", running.size()).put("plannedFailed", failed)
          .put("total", ctx.evidence.size());
      ctx.step(Phase.ACT.wire(), "rules", start, out, running.size() + " tool call(s), " + failed + " failed");
      ThinkStep.phaseEnd(ctx, Phase.ACT, "rules", start);
      return out;
    });
  }
}
