package dev.argus.decide;

import dev.argus.decide.model.DecisionConfigs;
import dev.argus.decide.model.PolicySet;
import dev.argus.decide.model.ScoringModel;
import dev.argus.decide.model.Verdict;
import dev.argus.decide.phases.DecisionContext;
import dev.argus.decide.rules.Autonomy;
import dev.argus.decide.rules.Consensus;
import dev.argus.decide.rules.RawSignal;
import dev.argus.decide.rules.Reflection;
import dev.argus.decide.rules.Scoring;
import dev.argus.decide.store.DecisionStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Shadow mode: each configured candidate version (a scoring model and/or policy file with that {@code version})
 * decides the same request from the same evidence as the live one — score, Reflect, policies, autonomy — and its
 * outcome is recorded, never returned. {@link #diff} reports where the candidate differs from the live outcomes.
 */
public final class ShadowRunner {

  private final DecisionConfigs configs;
  private final DecisionStore store;

  public ShadowRunner(DecisionConfigs configs, DecisionStore store) {
    this.configs = configs;
    this.store = store;
  }

  public Future<Void> run(DecisionContext ctx, Map<String, RawSignal> raw, List<String> versions, JsonObject live,
                          Consensus.Result cons, double calibrated) {
    List<Future<Void>> all = new ArrayList<>();
    for (String version : versions) {
      ScoringModel model = configs.scoring(ctx.profile, version).orElse(null);
      PolicySet policies = configs.policies(version).orElse(null);
      if (model == null && policies == null) {
        continue;
      }
      ScoringModel m = model == null ? ctx.model : model;
      PolicySet p = policies == null ? ctx.policies : policies;
      Scoring.Result scored = Scoring.score(m, raw);
      Reflection.Result refl = Reflection.reflect(scored.signals(), scored.confidence(),
          (int) ctx.evidence.stream().filter(o -> ((JsonObject) o).getBoolean("success", false))
              .map(o -> ((JsonObject) o).getString("tool")).distinct().count(), scored.riskScore(), scored.verdict(),
          List.of());
      Verdict v = refl.revised() ? refl.revisedAction() : scored.verdict();
      List<PolicySet.Fired> fired = DecisionEngine.policies(ctx, p, raw);
      for (PolicySet.Fired f : fired) {
        v = v.atLeast(f.action());
      }
      List<String> esc = new ArrayList<>();
      if (cons.disagreement()) {
        esc.add("the assessors disagree");
      }
      Autonomy.Result auto = Autonomy.decide(m, v, scored.riskScore(), Math.min(calibrated, refl.confidence()),
          scored.coverage(), esc);
      JsonArray firedJson = new JsonArray();
      fired.forEach(f -> firedJson.add(f.toJson(ctx.profile)));
      JsonObject s = new JsonObject().put("shadowId", "shd-" + UUID.randomUUID()).put("version", version)
          .put("profile", ctx.profile.wire()).put("liveDecisionId", live.getString("decisionId"))
          .put("subjectId", ctx.subjectId).put("liveOutcome", live.getString("outcome"))
          .put("outcome", ctx.profile.outcome(auto.verdict())).put("liveStatus", live.getString("status"))
          .put("status", auto.status()).put("liveRiskScore", live.getDouble("riskScore"))
          .put("riskScore", scored.riskScore()).put("scoringVersion", m.version()).put("policyVersion", p.version())
          .put("firedRules", firedJson).put("createdAtMs", System.currentTimeMillis());
      all.add(store.appendShadow(s));
    }
    return Future.all(all).mapEmpty();
  }

  /** {@code {version, compared, differing, byChange: {"APPROVE->REVIEW": n}, differences: [...]}}. */
  public Future<JsonObject> diff(String version, int limit) {
    configs.requireVersion(version);
    return store.shadow(version, limit).map(list -> {
      Map<String, Integer> changes = new LinkedHashMap<>();
      JsonArray diffs = new JsonArray();
      for (JsonObject s : list) {
        if (!s.getString("outcome").equals(s.getString("liveOutcome"))) {
          changes.merge(s.getString("liveOutcome") + "->" + s.getString("outcome"), 1, Integer::sum);
          diffs.add(s);
        }
      }
      return new JsonObject().put("version", version).put("compared", list.size()).put("differing", diffs.size())
          .put("byChange", new JsonObject(new LinkedHashMap<>(changes))).put("differences", diffs);
    });
  }
}
