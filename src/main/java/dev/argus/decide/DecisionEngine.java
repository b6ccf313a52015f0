package dev.argus.decide;

import dev.argus.agent.PhaseTransitions;
import dev.argus.agent.phases.Phase;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionConfigs;
import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.PolicyFacts;
import dev.argus.decide.model.PolicySet;
import dev.argus.decide.model.Verdict;
import dev.argus.decide.phases.ActStep;
import dev.argus.decide.phases.DecisionContext;
import dev.argus.decide.phases.DecisionEvents;
import dev.argus.decide.phases.ObserveStep;
import dev.argus.decide.phases.PlanStep;
import dev.argus.decide.phases.ReflectStep;
import dev.argus.decide.phases.ThinkStep;
import dev.argus.decide.rules.Autonomy;
import dev.argus.decide.rules.Consensus;
import dev.argus.decide.rules.RawSignal;
import dev.argus.decide.rules.Reflection;
import dev.argus.decide.rules.Scoring;
import dev.argus.decide.rules.Signal;
import dev.argus.decide.rules.SignalExtractor;
import dev.argus.decide.store.DecisionStore;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One decision, end to end, on the TPAOR phase model: Think (entities, hypotheses) → Plan → Act (tools in parallel;
 * back to Plan once with different tools when more than half failed — the agent's own {@link PhaseTransitions} rule)
 * → Observe (transparent score) → Reflect (four rules) → policies → consensus of the three assessors → citation
 * validation → calibration → supervised autonomy → the append-only record, its review when pending, the
 * {@code argus.decisions.created} event and the shadow versions. Used on the decide verticle's context only.
 */
public final class DecisionEngine {

  private final Vertx vertx;
  private final DecideConf conf;
  private final DecisionConfigs configs;
  private final DecisionStore store;
  private final SubjectResolver resolver;
  private final BusCalls calls;
  private final ThinkStep think;
  private final PlanStep plan = new PlanStep();
  private final ActStep act;
  private final ObserveStep observe;
  private final ReflectStep reflect = new ReflectStep();
  private final PeerStats peers = new PeerStats();
  private final ShadowRunner shadow;
  private final DecisionRuns runs;

  public DecisionEngine(Vertx vertx, DecideConf conf, DecisionConfigs configs, DecisionStore store, ActStep act,
                        dev.argus.decide.phases.DecisionLlm llm) {
    this.vertx = vertx;
    this.conf = conf;
    this.configs = configs;
    this.store = store;
    this.resolver = new SubjectResolver(vertx, conf);
    this.calls = new BusCalls(vertx, conf);
    this.think = new ThinkStep(llm);
    this.act = act;
    this.observe = new ObserveStep(llm);
    this.shadow = new ShadowRunner(configs, store);
    this.runs = new DecisionRuns(vertx);
  }

  public Future<JsonObject> decide(DecisionProfile profile, JsonObject req) {
    String runId = req.getString("runId");
    if (runId == null || runId.isBlank()) {
      runId = UUID.randomUUID().toString();
    } else if (!runId.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
      return Future.failedFuture(ApiException.badRequest("invalid_field", "field 'runId' must match [A-Za-z0-9_-]{1,64}"));
    }
    DecisionEvents events = new DecisionEvents(vertx, runId, true);
    DecisionContext ctx = new DecisionContext(profile, configs.live(profile), configs.livePolicies(), runId,
        "dec-" + UUID.randomUUID(), events);
    boolean[] started = {false};
    boolean recordRun = !Boolean.FALSE.equals(req.getValue("recordRun"));
    return resolver.resolve(ctx, req)
        .compose(v -> recordRun ? runs.begin(ctx) : Future.<Void>succeededFuture())
        .compose(v -> {
          started[0] = true;
          events.emit(RunEvent.RUN, new JsonObject().put("runId", ctx.runId).put("profile", profile.wire())
              .put("kind", "decision").put("subjectId", ctx.subjectId).put("status", "running"));
          return think.run(ctx);
        })
        .compose(v -> actLoop(ctx, false))
        .compose(v -> judge(ctx))
        .onFailure(err -> {
          if (!started[0]) {
            return; // refused before the run started: the caller gets the 4xx, there is no stream
          }
          ApiException api = err instanceof ApiException a ? a : new ApiException(500, "decision_failed",
              String.valueOf(err.getMessage()));
          events.emit(RunEvent.ERROR, new JsonObject().put("runId", ctx.runId).put("error", api.getMessage())
              .put("code", api.code()));
        })
        .onComplete(ar -> {
          if (started[0] && recordRun) {
            runs.record(ctx, ar.succeeded() ? ar.result() : null, ar.succeeded() ? null : ar.cause());
          }
        });
  }

  private Future<Void> actLoop(DecisionContext ctx, boolean replan) {
    plan.run(ctx, replan);
    return act.run(ctx).compose(out -> {
      PhaseTransitions.Transition t = PhaseTransitions.after(Phase.ACT, out, 0, ctx.replans, 0);
      if (t.next() == Phase.PLAN) {
        ctx.replans = t.replans();
        ctx.events.log(Phase.ACT.wire(), t.note(), false);
        return actLoop(ctx, true);
      }
      return Future.succeededFuture();
    });
  }

  private Future<JsonObject> judge(DecisionContext ctx) {
    Map<String, RawSignal> raw = SignalExtractor.extract(ctx.evidence, ctx.facts);
    return observe.run(ctx, raw).compose(scored -> {
      Reflection.Result refl = reflect.run(ctx, scored);
      Verdict verdict = refl.revised() ? refl.revisedAction() : scored.verdict();
      Verdict beforePolicy = verdict;
      List<PolicySet.Fired> fired = policies(ctx, ctx.policies, raw);
      for (PolicySet.Fired f : fired) {
        verdict = verdict.atLeast(f.action());
      }
      Verdict afterPolicy = verdict;
      // the assessors, citation validation and calibration are independent of each other: asked at once
      long asked = System.nanoTime();
      Future<Consensus.Result> consensus = calls.consensus(ctx.profile, ctx.model, scored.signals());
      Future<JsonObject> citations = citations(ctx, scored);
      Future<JsonObject> calibration = calls.calibrate(ctx.profile, refl.confidence());
      return Future.all(consensus, citations, calibration).compose(all -> {
        Consensus.Result cons = consensus.result();
        ctx.step("consensus", "rules", asked, cons.toJson(ctx.profile), cons.detail());
        ctx.timings.put("judgeCallsMs", (System.nanoTime() - asked) / 1_000_000);
        return finish(ctx, raw, scored, refl, fired, beforePolicy, afterPolicy, cons, citations.result(),
            calibration.result());
      });
    });
  }

  static List<PolicySet.Fired> policies(DecisionContext ctx, PolicySet policies, Map<String, RawSignal> raw) {
    Map<String, Double> values = new HashMap<>();
    raw.forEach((k, v) -> {
      if (v.value() != null) {
        values.put(k, v.value());
      }
    });
    return policies.evaluate(ctx.profile, new PolicyFacts(ctx.facts.getString("country"), ctx.amount, values));
  }

  /** Validated citations of the top reasons: {@code citation → result}. */
  private Future<JsonObject> citations(DecisionContext ctx, Scoring.Result scored) {
    List<JsonObject> all = new ArrayList<>();
    for (Signal s : Reasons.top(scored.signals())) {
      all.addAll(Reasons.citations(s, "[entity:seller:" + ctx.sellerId + "]"));
    }
    Map<String, JsonObject> unique = new LinkedHashMap<>();
    all.forEach(c -> unique.putIfAbsent(c.getString("citation"), c));
    long start = System.nanoTime();
    return calls.validate(List.copyOf(unique.values()), ctx.evidence).onSuccess(r ->
        ctx.timings.put("citationValidationMs", (System.nanoTime() - start) / 1_000_000));
  }

  private Future<JsonObject> finish(DecisionContext ctx, Map<String, RawSignal> raw, Scoring.Result scored,
                                    Reflection.Result refl, List<PolicySet.Fired> fired, Verdict beforePolicy,
                                    Verdict verdict,
                                    Consensus.Result cons, JsonObject cites, JsonObject cal) {
    List<String> escalations = new ArrayList<>();
    if (refl.revised()) {
      escalations.add("reflection revised the outcome (" + refl.concerns().size() + " concerns)");
    }
    // hard policy rules are not second-guessed by the assessors: they are compared with the outcome before policies
    if (cons.disagreement()) {
      escalations.add("the assessors disagree (" + cons.detail() + ")");
    } else if (cons.verdict() != beforePolicy && cons.votes().stream().anyMatch(v -> !v.abstained())) {
      escalations.add("the assessors' consensus is " + ctx.profile.outcome(cons.verdict()));
    }
    // missing evidence drives review, never approval: a tool whose signals weigh in the model failed (after re-plan)
    List<String> failedTools = refl.concerns().stream().filter(c -> c.rule().equals("failed_tool_matters"))
        .map(Reflection.Concern::detail).toList();
    if (!failedTools.isEmpty()) {
      escalations.add("evidence missing: " + failedTools.get(0));
    }
    JsonObject rescored = null;
    List<String> lost = new ArrayList<>();
    for (Signal s : Reasons.top(scored.signals())) {
      JsonObject c = cites.getJsonObject(s.cite());
      if (c != null && "excluded".equals(c.getString("status"))) {
        lost.add(s.name());
      }
    }
    Verdict v = verdict;
    if (!failedTools.isEmpty() && v == Verdict.PASS) {
      v = Verdict.REVIEW;
    }
    if (!lost.isEmpty()) {
      Map<String, RawSignal> kept = new LinkedHashMap<>(raw);
      lost.forEach(name -> kept.remove(ctx.model.signals().get(name).from()));
      Scoring.Result again = Scoring.score(ctx.model, kept);
      rescored = new JsonObject().put("without", new JsonArray(lost)).put("riskScore", again.riskScore())
          .put("outcome", ctx.profile.outcome(again.verdict()));
      escalations.add("deciding reason(s) " + lost + " lost their citation support; re-scored to " + again.riskScore());
      if (v == Verdict.PASS) {
        v = Verdict.REVIEW;
      }
    }
    double calibrated = cal.getDouble("calibrated");
    Autonomy.Result auto = Autonomy.decide(ctx.model, v, scored.riskScore(), calibrated, scored.coverage(),
        escalations);
    JsonObject decision = DecisionRecord.build(ctx, scored, refl, fired, auto, cons, cites, cal, peers, rescored);
    for (Signal s : scored.signals()) {
      if (s.known()) {
        peers.add(ctx.profile.wire(), s.name(), ctx.subjectId, s.raw());
      }
    }
    long start = System.nanoTime();
    Future<Void> saved = Autonomy.PENDING_REVIEW.equals(auto.status())
        ? store.appendWithReview(decision, Reviews.reviewOf(decision, ctx.model.reviewSlaMinutes()))
        : store.append(decision);
    return saved.compose(x -> {
      decision.getJsonObject("timings").put("storeMs", (System.nanoTime() - start) / 1_000_000);
      vertx.eventBus().publish(Addresses.DECISIONS_CREATED, DecisionRecord.summary(decision));
      JsonObject event = decision.copy();
      event.remove("trace");
      ctx.events.emit(DecisionEvents.DECISION, event);
      ctx.events.emit(RunEvent.FINAL, new JsonObject().put("runId", ctx.runId).put("decisionId", ctx.decisionId)
          .put("outcome", decision.getString("outcome")).put("status", decision.getString("status"))
          .put("riskScore", decision.getDouble("riskScore")));
      return shadow.run(ctx, raw, conf.shadowVersions(), decision, cons, calibrated)
          .otherwise(err -> null).map(decision);
    });
  }
}
