package dev.argus.eval.score;

import java.util.Locale;

/**
 * Every evaluation metric, its wire name and its direction. All are in 0..1 with higher better, except
 * {@link #REFLECTION_CONCERNS} (a count, lower better), which the aggregate and the regression rule leave out.
 * The aggregate ({@link #inAggregate()}) is made of the lexical scores only, so it compares across LLM settings.
 */
public enum Metric {
  CONTEXT_RELEVANCE("contextRelevance"),
  ANSWER_RELEVANCE("answerRelevance"),
  GROUNDEDNESS("groundedness"),
  FAITHFULNESS("faithfulness"),
  CITATION_PRECISION("citationPrecision"),
  CONTEXT_PRECISION("contextPrecision"),
  COHERENCE("coherence"),
  CITATION_VALIDITY_RATE("citationValidityRate"),
  EVIDENCE_COVERAGE("evidenceCoverage"),
  REFLECTION_CONCERNS("reflectionConcerns"),
  CONSENSUS_AGREEMENT("consensusAgreement"),
  /** The LLM judge's versions of the text scores (when an LLM is configured); not in the aggregate. */
  JUDGE_CONTEXT_RELEVANCE("judgeContextRelevance"),
  JUDGE_ANSWER_RELEVANCE("judgeAnswerRelevance"),
  JUDGE_GROUNDEDNESS("judgeGroundedness"),
  JUDGE_FAITHFULNESS("judgeFaithfulness"),
  JUDGE_COHERENCE("judgeCoherence"),
  /** Golden sets: share of expected citations the answer cites. */
  EXPECTED_CITATION_RECALL("expectedCitationRecall"),
  /** Golden sets: share of key facts the answer states. */
  KEY_FACT_RECALL("keyFactRecall"),
  /** Golden sets: share of decision cases with the expected outcome. */
  OUTCOME_ACCURACY("outcomeAccuracy"),
  AGGREGATE("aggregate");

  private final String wire;

  Metric(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  /** Higher is better (everything but the concern count). */
  public boolean higherIsBetter() {
    return this != REFLECTION_CONCERNS;
  }

  /** Part of the aggregate: the lexical run and decision scores (not the judge's, not the golden-set ones). */
  public boolean inAggregate() {
    return higherIsBetter() && ordinal() < JUDGE_CONTEXT_RELEVANCE.ordinal();
  }

  /** The metric named {@code name} (wire name, case-insensitive), or null. */
  public static Metric fromWire(String name) {
    if (name == null) {
      return null;
    }
    for (Metric m : values()) {
      if (m.wire.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    return null;
  }
}
