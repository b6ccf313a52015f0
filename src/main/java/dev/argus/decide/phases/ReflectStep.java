package dev.argus.decide.phases;

import dev.argus.agent.phases.Phase;
import dev.argus.decide.model.Verdict;
import dev.argus.decide.rules.Reflection;
import dev.argus.decide.rules.Scoring;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reflect: the four rules of {@link Reflection} on the observed score, the same on both paths; recorded as a
 * reflection step of the run and published as a {@code reflection} event.
 */
public final class ReflectStep {

  public Reflection.Result run(DecisionContext ctx, Scoring.Result scored) {
    long start = System.nanoTime();
    ThinkStep.phase(ctx, Phase.REFLECT, "start");
    Set<String> used = new LinkedHashSet<>();
    Set<String> failed = new LinkedHashSet<>();
    for (Object o : ctx.evidence) {
      JsonObject e = (JsonObject) o;
      if (e.getBoolean("success", false)) {
        used.add(e.getString("tool"));
      } else {
        failed.add(e.getString("tool"));
      }
    }
    failed.removeAll(used);
    List<String> mattering = new ArrayList<>();
    for (String t : failed) {
      if (ctx.model.toolMatters(t)) {
        mattering.add(t);
      }
    }
    Reflection.Result r = Reflection.reflect(scored.signals(), scored.confidence(), used.size(), scored.riskScore(),
        scored.verdict(), mattering);
    JsonObject out = r.toJson(ctx.profile).put("toolsUsed", used.size()).put("failedTools", mattering.size());
    ctx.events.emit(DecisionEvents.REFLECTION, out);
    ctx.step(Phase.REFLECT.wire(), "rules", start, out, r.concerns().size() + " concern(s)"
        + (r.revised() ? "; revised to " + ctx.profile.outcome(Verdict.REVIEW) : ""));
    ThinkStep.phaseEnd(ctx, Phase.REFLECT, "rules", start);
    return r;
  }
}
