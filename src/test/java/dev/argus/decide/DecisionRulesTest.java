package dev.argus.decide;

import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.PolicyFacts;
import dev.argus.decide.model.PolicySet;
import dev.argus.decide.model.ScoringModel;
import dev.argus.decide.model.Verdict;
import dev.argus.decide.rules.Autonomy;
import dev.argus.decide.rules.Consensus;
import dev.argus.decide.rules.RawSignal;
import dev.argus.decide.rules.Reflection;
import dev.argus.decide.rules.Scoring;
import dev.argus.decide.rules.Signal;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decision rules as pure functions, with every figure computed by hand in the comments: scoring, the four Reflect
 * rules and the two-concern threshold, the consensus strategies, supervised autonomy and policy rules.
 * (DecisionServiceTest checks the same rules end to end on the running service.)
 */
class DecisionRulesTest {

  static final ScoringModel MODEL = ScoringModel.from("test", new JsonObject("""
      {"profile": "seller_onboarding", "version": "t1",
       "signals": {"a": {"weight": 2, "low": 0, "high": 10, "tool": "t1", "domain": "identity"},
                   "b": {"weight": 1, "low": 0, "high": 1, "tool": "t2", "domain": "behaviour"},
                   "c": {"weight": 1, "low": 0, "high": 1, "tool": "t3", "domain": "network"}},
       "hypotheses": {"h": ["t1", "t2", "t3"]},
       "thresholds": {"review": 35, "reject": 65},
       "autonomy": {"minConfidence": 0.7, "minCoverage": 0.5}}"""));

  static Signal sig(String name, double weight, double scaled) {
    return new Signal(name, scaled, scaled, weight, 0, "[source:t:0]", "t", "identity", null);
  }

  static final ScoringModel ACCUMULATING = ScoringModel.from("test", new JsonObject("""
      {"profile": "seller_onboarding", "version": "t-acc", "combine": "accumulate",
       "signals": {"a": {"weight": 2, "low": 0, "high": 10, "tool": "t1", "domain": "identity"},
                   "b": {"weight": 1, "low": 0, "high": 1, "tool": "t2", "domain": "behaviour"},
                   "c": {"weight": 1, "low": 0, "high": 1, "tool": "t3", "domain": "network"}},
       "hypotheses": {"h": ["t1", "t2", "t3"]},
       "thresholds": {"review": 40, "reject": 70},
       "autonomy": {"minConfidence": 0.7, "minCoverage": 0.5}}"""));

  @Test
  void accumulatedEvidenceIsNotAveragedAway() {
    Scoring.Result r = Scoring.score(ACCUMULATING, Map.of(
        "a", new RawSignal("a", 5.0, "[source:t1:0]", "t1", null),
        "b", new RawSignal("b", 0.0, "[source:t2:1]", "t2", null),
        "c", new RawSignal("c", null, "[source:t3:2]", "t3", "tool failed")));
    // evidence: a 2 * 0.5 = 1 unit, b 1 * 0 = 0; risk = 100 * (1 - e^-1) = 63.212 -> REVIEW (40 <= 63.21 < 70)
    // (the weighted mean would give 100 * 1 / 3 = 33.33 and approve)
    assertEquals(63.21, r.riskScore(), 1e-9);
    assertEquals(Verdict.REVIEW, r.verdict());
    // the score split in proportion to the evidence: a carries all of it
    assertEquals(63.21, r.signals().get(0).contribution(), 1e-9);
    assertEquals(0.0, r.signals().get(1).contribution(), 1e-9);
    // coverage 3 / 4 = 0.75; distance to the nearest threshold min(23.21, 6.79) = 6.79; decisiveness 6.79 / 15
    // = 0.45267; confidence 0.75 * (0.5 + 0.5 * 0.45267) = 0.54475
    assertEquals(0.75, r.coverage(), 1e-9);
    assertEquals(0.5448, r.confidence(), 1e-4);
    Scoring.Result two = Scoring.score(ACCUMULATING, Map.of(
        "a", new RawSignal("a", 10.0, "[source:t1:0]", "t1", null),
        "b", new RawSignal("b", 1.0, "[source:t2:1]", "t2", null),
        "c", new RawSignal("c", 0.0, "[source:t3:2]", "t3", null)));
    // 2 + 1 = 3 units: 100 * (1 - e^-3) = 95.021 -> DENY; contributions 95.02 * 2/3 = 63.35, 95.02 * 1/3 = 31.67
    assertEquals(95.02, two.riskScore(), 1e-9);
    assertEquals(Verdict.DENY, two.verdict());
    assertEquals(63.35, two.signals().get(0).contribution(), 1e-9);
    assertEquals(31.67, two.signals().get(1).contribution(), 1e-9);
    assertEquals(1.0, two.coverage(), 1e-9);
  }

  @Test
  void reversalRatesAreWilsonLowerBounds() {
    // (p + z²/2n - z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z 1.96
    // 1 of 6: (0.16667 + 0.32013 - 1.96 * sqrt(0.023148 + 0.026677)) / 1.64027 = (0.48680 - 0.43741) / 1.64027 = 0.0301
    assertEquals(0.0301, dev.argus.decide.rules.SignalExtractor.wilsonLower(1, 6), 1e-4);
    // 25 of 100: (0.25 + 0.019208 - 1.96 * sqrt(0.001875 + 0.00009604)) / 1.038416 = 0.17545
    assertEquals(0.1755, dev.argus.decide.rules.SignalExtractor.wilsonLower(25, 100), 1e-4);
    assertEquals(0.0, dev.argus.decide.rules.SignalExtractor.wilsonLower(0, 10), 1e-9);
    assertEquals(0.0, dev.argus.decide.rules.SignalExtractor.wilsonLower(0, 0), 1e-9);
  }

  @Test
  void theBuyersRefundHistoryBecomesASignalCitingItsEvidence() {
    JsonObject evidence = new JsonObject().put("tool", "transaction_history").put("index", 3).put("success", true)
        .put("data", new JsonObject().put("items", new io.vertx.core.json.JsonArray()
            .add(new JsonObject().put("signal", "buyer_refund_ratio").put("status", "known").put("buyerId", "B-1")
                .put("transactions", 5).put("count", 2).put("ratio", 0.4))));
    Map<String, RawSignal> out = dev.argus.decide.rules.SignalExtractor.extract(
        new io.vertx.core.json.JsonArray().add(evidence), new JsonObject());
    RawSignal buyer = out.get("buyer_refund_ratio");
    // 2 of 5: p 0.4, z² 3.8416: (0.4 + 0.38416 - 1.96 * sqrt(0.048 + 0.038416)) / 1.76832
    //   = (0.78416 - 0.57618) / 1.76832 = 0.1176
    assertEquals(0.1176, buyer.value(), 1e-4);
    assertEquals("[source:transaction_history:3]", buyer.cite());
    JsonObject unknown = evidence.copy();
    unknown.getJsonObject("data").getJsonArray("items").getJsonObject(0).put("status", "unknown")
        .put("reason", "no earlier purchases");
    assertNull(dev.argus.decide.rules.SignalExtractor.extract(new io.vertx.core.json.JsonArray().add(unknown),
        new JsonObject()).get("buyer_refund_ratio").value(), "unknown stays unknown, never 0");
  }

  @Test
  void anAccumulatingAssessorScoresItsDomainTheSameWay() {
    JsonObject vote = Assessor.assess(new JsonObject().put("domain", "identity").put("combine", "accumulate")
        .put("thresholds", new JsonObject().put("review", 40).put("reject", 70))
        .put("signals", new io.vertx.core.json.JsonArray()
            .add(sig("a", 2, 0.5).toJson().put("domain", "identity"))
            .add(sig("x", 1, 0.0).toJson().put("domain", "identity"))));
    // 2 * 0.5 + 1 * 0 = 1 unit -> 63.21, REVIEW; coverage 1, distance 6.79 -> confidence 0.5 + 0.5 * 0.45267 = 0.7263
    assertEquals(63.21, vote.getDouble("score"), 1e-9);
    assertEquals("REVIEW", vote.getString("verdict"));
    assertEquals(0.7263, vote.getDouble("confidence"), 1e-4);
  }

  @Test
  void scoringIsTheWeightedShareOfTheKnownSignals() {
    Scoring.Result r = Scoring.score(MODEL, Map.of(
        "a", new RawSignal("a", 5.0, "[source:t1:0]", "t1", null),
        "b", new RawSignal("b", 1.0, "[source:t2:1]", "t2", null),
        "c", new RawSignal("c", null, "[source:t3:2]", "t3", "tool failed")));
    // known weight 2 + 1 = 3; a scaled 5/10 = 0.5, b scaled 1
    // contributions: a 100*2*0.5/3 = 33.33, b 100*1*1/3 = 33.33; score 66.67 -> DENY (>= 65)
    assertEquals(66.67, r.riskScore(), 1e-9);
    assertEquals(Verdict.DENY, r.verdict());
    assertEquals(33.33, r.signals().get(0).contribution(), 1e-9);
    // coverage 3 / 4 = 0.75; distance to the nearest threshold |66.67 - 65| = 1.67; decisiveness 1.67/15 = 0.11133
    // confidence 0.75 * (0.5 + 0.5 * 0.11133) = 0.41675
    assertEquals(0.75, r.coverage(), 1e-9);
    assertEquals(0.4168, r.confidence(), 1e-4);
    assertFalse(r.signals().get(2).known());
    assertEquals(0.0, r.signals().get(2).contribution());
  }

  @Test
  void rule1SignalsDisagreeByMoreThanThirtyPercent() {
    // risk side weight 2, no-risk side 1: the lighter side holds 1/3 = 33% > 30%
    Reflection.Result r = Reflection.reflect(List.of(sig("x", 2, 0.8), sig("y", 1, 0.0)), 0.5, 3, 50, Verdict.REVIEW,
        List.of());
    assertEquals(List.of("signals_disagree"), rules(r));
    // 3 against 1: 25%, no concern
    assertTrue(Reflection.reflect(List.of(sig("x", 3, 0.8), sig("y", 1, 0.0)), 0.5, 3, 50, Verdict.REVIEW,
        List.of()).concerns().isEmpty());
    // one concern does not revise: reflectionConfidence 1 - 0.25 = 0.75, confidence unchanged
    assertFalse(r.revised());
    assertEquals(0.75, r.reflectionConfidence(), 1e-9);
    assertEquals(0.5, r.confidence(), 1e-9);
  }

  @Test
  void rule2OverconfidentWithFewerThanThreeTools() {
    assertEquals(List.of("overconfident"), rules(Reflection.reflect(List.of(), 0.85, 2, 10, Verdict.PASS, List.of())));
    assertTrue(Reflection.reflect(List.of(), 0.85, 3, 10, Verdict.PASS, List.of()).concerns().isEmpty());
    assertTrue(Reflection.reflect(List.of(), 0.8, 1, 10, Verdict.PASS, List.of()).concerns().isEmpty(),
        "0.8 is not above 0.8");
  }

  @Test
  void rule3OutcomeContradictsRisk() {
    assertEquals(List.of("outcome_contradicts_risk"), rules(Reflection.reflect(List.of(), 0.5, 3, 61, Verdict.PASS,
        List.of())));
    assertTrue(Reflection.reflect(List.of(), 0.5, 3, 60, Verdict.PASS, List.of()).concerns().isEmpty());
    assertEquals(List.of("outcome_contradicts_risk"), rules(Reflection.reflect(List.of(), 0.5, 3, 19, Verdict.DENY,
        List.of())));
    assertTrue(Reflection.reflect(List.of(), 0.5, 3, 20, Verdict.DENY, List.of()).concerns().isEmpty());
  }

  @Test
  void rule4FailedToolThatMatters() {
    assertEquals(List.of("failed_tool_matters"), rules(Reflection.reflect(List.of(), 0.5, 3, 50, Verdict.REVIEW,
        List.of("find_rings"))));
    assertTrue(MODEL.toolMatters("t3"));
    assertFalse(MODEL.toolMatters("unknown_tool"));
  }

  @Test
  void twoConcernsReviseTheDecision() {
    // overconfident (0.9 > 0.8 with 2 tools) + failed tool: two concerns -> revise
    Reflection.Result r = Reflection.reflect(List.of(), 0.9, 2, 10, Verdict.PASS, List.of("risk_propagation"));
    assertTrue(r.revised());
    assertEquals(Verdict.REVIEW, r.revisedAction());
    assertEquals(0.5, r.reflectionConfidence(), 1e-9);   // 1 - 0.25 * 2
    assertEquals(0.72, r.confidence(), 1e-9);            // 0.9 * 0.8
    assertEquals(0.9, r.confidenceBefore(), 1e-9);
    assertTrue(r.contraArgument().contains("risk_propagation"), r.contraArgument());
    // three concerns: + 61 with approval; reflectionConfidence 1 - 0.75 = 0.25
    Reflection.Result three = Reflection.reflect(List.of(), 0.9, 2, 61, Verdict.PASS, List.of("x"));
    assertEquals(3, three.concerns().size());
    assertEquals(0.25, three.reflectionConfidence(), 1e-9);
  }

  static Consensus.Vote vote(String who, Verdict v, double confidence) {
    return new Consensus.Vote(who, v, confidence, List.of(), false, null);
  }

  @Test
  void consensusStrategies() {
    List<Consensus.Vote> votes = List.of(vote("identity", Verdict.PASS, 0.3), vote("network", Verdict.DENY, 0.9),
        vote("behaviour", Verdict.PASS, 0.4));
    // majority: PASS has 2 of 3 votes
    Consensus.Result majority = Consensus.merge("majority", votes);
    assertEquals(Verdict.PASS, majority.verdict());
    assertTrue(majority.disagreement());
    // unanimous: not unanimous -> REVIEW
    assertEquals(Verdict.REVIEW, Consensus.merge("unanimous", votes).verdict());
    // weighted: PASS 0.3 + 0.4 = 0.7 < DENY 0.9 -> DENY
    assertEquals(Verdict.DENY, Consensus.merge("weighted", votes).verdict());
    // majority without one: three different outcomes -> REVIEW
    assertEquals(Verdict.REVIEW, Consensus.merge("majority", List.of(vote("a", Verdict.PASS, 1),
        vote("b", Verdict.REVIEW, 1), vote("c", Verdict.DENY, 1))).verdict());
    // an abstaining assessor does not count: the other two agree -> unanimous, no disagreement
    Consensus.Result abstained = Consensus.merge("unanimous", List.of(vote("a", Verdict.DENY, 0.8),
        new Consensus.Vote("network", Verdict.REVIEW, 0, List.of(), true, "no graph"), vote("c", Verdict.DENY, 0.6)));
    assertEquals(Verdict.DENY, abstained.verdict());
    assertFalse(abstained.disagreement());
    // weighted tie -> REVIEW
    assertEquals(Verdict.REVIEW, Consensus.merge("weighted", List.of(vote("a", Verdict.PASS, 0.5),
        vote("b", Verdict.DENY, 0.5))).verdict());
  }

  @Test
  void autonomyThresholds() {
    Autonomy.Result ok = Autonomy.decide(MODEL, Verdict.PASS, 10, 0.75, 1.0, List.of());
    assertEquals(Autonomy.FINAL, ok.status());
    assertEquals("low", ok.riskBand());
    // confidence below the profile's 0.7
    assertEquals(Autonomy.PENDING_REVIEW, Autonomy.decide(MODEL, Verdict.PASS, 10, 0.69, 1.0, List.of()).status());
    // exactly at the threshold is enough
    assertEquals(Autonomy.FINAL, Autonomy.decide(MODEL, Verdict.PASS, 10, 0.7, 1.0, List.of()).status());
    // high risk is never approved without a person
    Autonomy.Result high = Autonomy.decide(MODEL, Verdict.PASS, 70, 0.95, 1.0, List.of());
    assertEquals(Verdict.REVIEW, high.verdict());
    assertEquals(Autonomy.PENDING_REVIEW, high.status());
    assertEquals(Autonomy.PENDING_REVIEW, Autonomy.decide(MODEL, Verdict.DENY, 70, 0.95, 1.0, List.of()).status());
    // too little evidence (coverage 0.4 < 0.5) is a reason for review, never an approval
    Autonomy.Result thin = Autonomy.decide(MODEL, Verdict.PASS, 0, 0.95, 0.4, List.of());
    assertEquals(Verdict.REVIEW, thin.verdict());
    assertEquals(Autonomy.PENDING_REVIEW, thin.status());
    // medium risk, a policy reject, confident: final
    assertEquals(Autonomy.FINAL, Autonomy.decide(MODEL, Verdict.DENY, 40, 0.8, 1.0, List.of()).status());
    // a REVIEW outcome always waits for a person; so does any escalation
    assertEquals(Autonomy.PENDING_REVIEW, Autonomy.decide(MODEL, Verdict.REVIEW, 40, 0.9, 1.0, List.of()).status());
    assertEquals(Autonomy.PENDING_REVIEW, Autonomy.decide(MODEL, Verdict.PASS, 10, 0.9, 1.0,
        List.of("the assessors disagree")).status());
  }

  @Test
  void policyRulesFireOnTheirFacts() {
    PolicySet p = PolicySet.from("p", new JsonObject("""
        {"version": "pv", "rules": [
          {"id": "sanctioned", "type": "country_in", "countries": ["ir"], "action": "reject"},
          {"id": "watch", "type": "signal_at_least", "signal": "watchlist_exact", "value": 1, "action": "review"},
          {"id": "big", "type": "amount_above", "amount": 10000, "action": "review", "profiles": ["transaction_investigation"]}]}"""));
    List<PolicySet.Fired> fired = p.evaluate(DecisionProfile.SELLER_ONBOARDING,
        new PolicyFacts("IR", 20000.0, Map.of("watchlist_exact", 1.0)));
    // the amount rule is for transactions only
    assertEquals(List.of("sanctioned", "watch"), fired.stream().map(PolicySet.Fired::id).toList());
    assertEquals(Verdict.DENY, Verdict.PASS.atLeast(fired.get(0).action()).atLeast(fired.get(1).action()));
    assertEquals(List.of("big"), p.evaluate(DecisionProfile.TRANSACTION_INVESTIGATION,
        new PolicyFacts("DE", 10000.01, Map.of("watchlist_exact", 0.0))).stream().map(PolicySet.Fired::id).toList());
    assertTrue(p.evaluate(DecisionProfile.TRANSACTION_INVESTIGATION, new PolicyFacts(null, 10000.0, Map.of())).isEmpty());
    assertNull(MODEL.signals().get("missing"));
  }

  static List<String> rules(Reflection.Result r) {
    return r.concerns().stream().map(Reflection.Concern::rule).toList();
  }
}
