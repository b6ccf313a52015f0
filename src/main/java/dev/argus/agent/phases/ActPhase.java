package dev.argus.agent.phases;

import dev.argus.agent.tools.EvidenceItem;
import dev.argus.agent.tools.Tool;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.agent.tools.ToolRegistry;
import dev.argus.agent.profile.Profile;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Act: runs the planned calls in parallel (they are independent), then the follow-up calls derived from the search
 * hits (neighbours of the top hits), also in parallel. Every call becomes an evidence item with the next stable
 * index; {@code tool_call} and {@code tool_result} events report each. Output {@code {evidence, total, failed}}.
 * A call to a tool the profile does not list fails as evidence, it is never executed.
 */
public final class ActPhase implements PhaseStep {

  private final ToolExecutor executor;
  private final Function<Profile, ToolRegistry> registries;

  public ActPhase(ToolExecutor executor, Function<Profile, ToolRegistry> registries) {
    this.executor = executor;
    this.registries = registries;
  }

  @Override
  public Phase phase() {
    return Phase.ACT;
  }

  @Override
  public Future<PhaseResult> run(PhaseInput in) {
    JsonObject plan = in.output(Phase.PLAN);
    ToolRegistry tools = registries.apply(in.profile());
    int base = in.run().evidence().size();
    List<JsonObject> calls = new ArrayList<>();
    for (Object o : plan.getJsonArray("calls", new JsonArray())) {
      if (o instanceof JsonObject c && calls.size() < in.profile().limits().maxToolCalls()) {
        calls.add(c);
      }
    }
    List<EvidenceItem> items = new ArrayList<>();
    return runAll(in, tools, calls, base).compose(first -> {
      items.addAll(first);
      List<JsonObject> followUps = followUps(plan.getJsonObject("followUp"), first,
          in.profile().limits().maxToolCalls() - calls.size());
      return runAll(in, tools, followUps, base + first.size());
    }).map(second -> {
      items.addAll(second);
      JsonArray evidence = new JsonArray();
      int failed = 0;
      for (EvidenceItem e : items) {
        evidence.add(e.toJson());
        if (!e.success()) {
          failed++;
        }
      }
      JsonObject out = new JsonObject().put("evidence", evidence).put("total", items.size()).put("failed", failed)
          .put("plannedFailed", (int) first(items, calls.size()).stream().filter(e -> !e.success()).count())
          .put("planned", calls.size());
      return PhaseResult.rules(out, items.size() + " tool call(s), " + failed + " failed");
    });
  }

  private static List<EvidenceItem> first(List<EvidenceItem> items, int n) {
    return items.subList(0, Math.min(n, items.size()));
  }

  private Future<List<EvidenceItem>> runAll(PhaseInput in, ToolRegistry tools, List<JsonObject> calls, int base) {
    List<Future<EvidenceItem>> running = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      int index = base + i;
      String name = calls.get(i).getString("tool");
      JsonObject params = calls.get(i).getJsonObject("params", new JsonObject());
      in.events().emit(RunEvent.TOOL_CALL, new JsonObject().put("index", index).put("tool", name).put("params", params));
      Future<EvidenceItem> call = tools.has(name) ? executor.call(index, name, params)
          : Future.succeededFuture(new EvidenceItem(index, name, params, false, null,
          "tool '" + name + "' is not available to profile " + in.profile().name(), 0, 0));
      running.add(call.onSuccess(e -> {
        Tool t = tools.get(name);
        JsonObject summary = e.success() && t != null ? t.summarize(e.data()) : new JsonObject();
        in.events().emit(RunEvent.TOOL_RESULT, new JsonObject().put("index", index).put("tool", name)
            .put("success", e.success()).put("durationMs", e.durationMs()).put("attempts", e.attempts())
            .put("error", e.error()).put("summary", summary).put("timings", timings(e)));
      }));
    }
    return Future.all(running).map(cf -> {
      List<EvidenceItem> out = new ArrayList<>();
      for (int i = 0; i < running.size(); i++) {
        out.add(cf.resultAt(i));
      }
      return out;
    });
  }

  /** Neighbour calls for the top hits of the successful searches. */
  static List<JsonObject> followUps(JsonObject spec, List<EvidenceItem> first, int budget) {
    List<JsonObject> out = new ArrayList<>();
    if (spec == null || budget <= 0) {
      return out;
    }
    int top = spec.getInteger("topHits", 2);
    for (EvidenceItem e : first) {
      if (!e.success() || !"knowledge_search".equals(e.tool())) {
        continue;
      }
      JsonArray results = e.data().getJsonArray("results", new JsonArray());
      for (int i = 0; i < Math.min(top, results.size()) && out.size() < budget; i++) {
        JsonObject hit = results.getJsonObject(i);
        if (hit.getInteger("chunkTotal", 2) <= 1) {
          continue;
        }
        out.add(new JsonObject().put("tool", spec.getString("tool")).put("params", new JsonObject()
            .put("documentId", hit.getString("documentId")).put("index", hit.getInteger("chunkIndex", 0))
            .put("before", spec.getInteger("before", 1)).put("after", spec.getInteger("after", 1))));
      }
    }
    return out;
  }

  /** A search tool's stage timings ({@code data.timings}), for the run's trace; null for other tools. */
  private static JsonObject timings(EvidenceItem e) {
    return e.success() && e.data() != null && e.data().getValue("timings") instanceof JsonObject t ? t : null;
  }
}
