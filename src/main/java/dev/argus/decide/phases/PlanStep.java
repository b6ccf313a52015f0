package dev.argus.decide.phases;

import dev.argus.agent.phases.Phase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Plan: the tools that test the hypotheses (each tool once), with the subject and {@code asOf}. A re-plan (more than
 * half of the calls failed) keeps what succeeded and replaces each failed call by the scoring model's
 * {@code alternatives} entry for that tool — another tool or other parameters, never the same call again; a failed
 * tool without an alternative is dropped.
 */
public final class PlanStep {

  public void run(DecisionContext ctx, boolean replan) {
    long start = System.nanoTime();
    ThinkStep.phase(ctx, Phase.PLAN, "start");
    List<JsonObject> calls = new ArrayList<>();
    String rationale;
    if (!replan) {
      Set<String> tools = new LinkedHashSet<>();
      for (String h : ctx.hypotheses) {
        tools.addAll(ctx.model.hypotheses().getOrDefault(h, List.of()));
      }
      for (String t : tools) {
        if (subject(ctx, t) != null) { // a buyer tool has nothing to ask without a buyer
          calls.add(call(ctx, t, new JsonObject()));
        }
      }
      rationale = "one call per tool that tests " + String.join(", ", ctx.hypotheses);
    } else {
      Set<String> succeeded = new LinkedHashSet<>();
      Set<String> tried = new LinkedHashSet<>();
      List<String> failed = new ArrayList<>();
      for (Object o : ctx.evidence) {
        JsonObject e = (JsonObject) o;
        tried.add(key(e.getString("tool"), e.getJsonObject("params")));
        if (e.getBoolean("success", false)) {
          succeeded.add(e.getString("tool"));
        } else {
          failed.add(e.getString("tool"));
        }
      }
      List<String> changes = new ArrayList<>();
      for (String t : failed) {
        JsonObject alt = ctx.model.alternatives().get(t);
        if (alt == null) {
          changes.add(t + ": no alternative, dropped");
          continue;
        }
        JsonObject c = call(ctx, alt.getString("tool"), alt.getJsonObject("params", new JsonObject()));
        if (succeeded.contains(c.getString("tool")) || tried.contains(key(c.getString("tool"), c.getJsonObject("params")))) {
          changes.add(t + ": alternative " + c.getString("tool") + " already used, dropped");
          continue;
        }
        tried.add(key(c.getString("tool"), c.getJsonObject("params")));
        calls.add(c);
        changes.add(t + " -> " + c.getString("tool") + " " + c.getJsonObject("params").encode());
      }
      rationale = "re-plan keeping " + succeeded + "; " + String.join("; ", changes);
    }
    ctx.calls = List.copyOf(calls);
    JsonArray planned = new JsonArray();
    calls.forEach(planned::add);
    ctx.step(Phase.PLAN.wire(), "rules", start, new JsonObject().put("calls", planned).put("replan", replan)
        .put("rationale", rationale), rationale);
    ThinkStep.phaseEnd(ctx, Phase.PLAN, "rules", start);
  }

  private static String key(String tool, JsonObject params) {
    return tool + " " + (params == null ? "{}" : params.encode());
  }

  /** The id a tool is asked about: the seller, or the transaction's buyer for a buyer tool. */
  static String subject(DecisionContext ctx, String tool) {
    return "buyer".equals(ctx.model.subjectOf(tool)) ? ctx.buyerId : ctx.sellerId;
  }

  static JsonObject call(DecisionContext ctx, String tool, JsonObject extra) {
    JsonObject params = new JsonObject().put(ctx.model.subjectParam(tool), subject(ctx, tool));
    if (ctx.asOf != null) {
      params.put("asOf", ctx.asOf);
    }
    if ("transaction_history".equals(tool) && ctx.transactionId != null) {
      params.put("transactionId", ctx.transactionId);
    }
    params.mergeIn(extra == null ? new JsonObject() : extra.copy());
    return new JsonObject().put("tool", tool).put("params", params);
  }
}
