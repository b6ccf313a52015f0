package dev.argus.eval.score;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.Map;

/**
 * The scores of a decision ({@code argus.decisions.created}'s body, contracts.md), without an LLM:
 * <ul>
 *   <li>citation validity rate: share of the reasons' citations whose status is {@code valid};</li>
 *   <li>evidence coverage: share of the signals that move the score ({@code contribution != 0}) carrying a
 *       citation ({@code cite});</li>
 *   <li>reflection concerns: how many concerns Reflect raised ({@code reflection.concerns}, else
 *       {@code reflection.issues}) — a count, lower is better;</li>
 *   <li>consensus agreement: {@code consensus.agreement} when given, else the share of {@code consensus.votes}
 *       whose {@code outcome} is the decision's outcome.</li>
 * </ul>
 * A metric whose inputs are absent is left out, with a note saying why.
 */
public final class DecisionScores {

  private DecisionScores() {
  }

  public static Scorecard score(JsonObject decision) {
    Map<Metric, Double> m = new EnumMap<>(Metric.class);
    JsonObject notes = new JsonObject();
    int citations = 0;
    int valid = 0;
    for (Object r : array(decision, "reasons")) {
      if (r instanceof JsonObject reason) {
        for (Object c : array(reason, "citations")) {
          if (c instanceof JsonObject cite) {
            citations++;
            if ("valid".equals(cite.getString("status"))) {
              valid++;
            }
          }
        }
      }
    }
    if (citations > 0) {
      m.put(Metric.CITATION_VALIDITY_RATE, (double) valid / citations);
    } else {
      m.put(Metric.CITATION_VALIDITY_RATE, 0.0);
      notes.put("citationValidityRate", "no reason carries a citation");
    }
    int moving = 0;
    int covered = 0;
    for (Object s : array(decision, "signals")) {
      if (s instanceof JsonObject signal && signal.getValue("contribution") instanceof Number c && c.doubleValue() != 0) {
        moving++;
        String cite = signal.getValue("cite") instanceof String str ? str : null;
        if (cite != null && !cite.isBlank()) {
          covered++;
        }
      }
    }
    if (moving > 0) {
      m.put(Metric.EVIDENCE_COVERAGE, (double) covered / moving);
    } else {
      notes.put("evidenceCoverage", "no signal moves the score");
    }
    if (decision.getValue("reflection") instanceof JsonObject reflection) {
      JsonArray concerns = reflection.getValue("concerns") instanceof JsonArray a ? a
          : reflection.getValue("issues") instanceof JsonArray b ? b : new JsonArray();
      m.put(Metric.REFLECTION_CONCERNS, (double) concerns.size());
    } else {
      notes.put("reflectionConcerns", "the decision carries no reflection");
    }
    Double agreement = agreement(decision);
    if (agreement != null) {
      m.put(Metric.CONSENSUS_AGREEMENT, agreement);
    } else {
      notes.put("consensusAgreement", "the decision carries no consensus");
    }
    return Scorecard.withAggregate(m, notes);
  }

  private static Double agreement(JsonObject decision) {
    if (!(decision.getValue("consensus") instanceof JsonObject consensus)) {
      return null;
    }
    if (consensus.getValue("agreement") instanceof Number n) {
      return Math.max(0, Math.min(1, n.doubleValue()));
    }
    JsonArray votes = array(consensus, "votes");
    if (votes.isEmpty()) {
      return null;
    }
    String outcome = decision.getString("outcome");
    int same = 0;
    for (Object v : votes) {
      if (v instanceof JsonObject vote && outcome != null && outcome.equals(vote.getString("outcome"))) {
        same++;
      }
    }
    return (double) same / votes.size();
  }

  private static JsonArray array(JsonObject o, String key) {
    return o.getValue(key) instanceof JsonArray a ? a : new JsonArray();
  }
}
