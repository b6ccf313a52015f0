package dev.argus.decide.rules;

import dev.argus.decide.model.ScoringModel;
import dev.argus.decide.model.Verdict;

import java.util.ArrayList;
import java.util.List;

/**
 * Supervised autonomy, a pure function. A decision is {@code FINAL} on its own only when its risk is low or medium
 * (below the reject threshold), its (calibrated) confidence reaches the profile's {@code minConfidence}, its outcome is
 * not REVIEW and nothing escalated it (reflection revision, consensus disagreement, lost citation support). Everything
 * else is {@code PENDING_REVIEW}. A high-risk subject is never approved without a person (PASS becomes REVIEW), and
 * too little evidence (coverage below {@code minCoverage}) is itself a reason for review, never an approval.
 */
public final class Autonomy {

  public static final String FINAL = "FINAL";
  public static final String PENDING_REVIEW = "PENDING_REVIEW";

  private Autonomy() {
  }

  public record Result(Verdict verdict, String status, String riskBand, List<String> reasons) {
  }

  public static String band(ScoringModel m, double riskScore) {
    return riskScore >= m.rejectThreshold() ? "high" : riskScore >= m.reviewThreshold() ? "medium" : "low";
  }

  public static Result decide(ScoringModel m, Verdict verdict, double riskScore, double confidence, double coverage,
                              List<String> escalations) {
    List<String> reasons = new ArrayList<>(escalations);
    String band = band(m, riskScore);
    Verdict v = verdict;
    if (band.equals("high") && v == Verdict.PASS) {
      v = Verdict.REVIEW;
      reasons.add("high risk is never approved without a person");
    } else if (band.equals("high")) {
      reasons.add("high risk (" + riskScore + " >= " + m.rejectThreshold() + ") needs a person");
    }
    if (coverage < m.minCoverage()) {
      if (v == Verdict.PASS) {
        v = Verdict.REVIEW;
      }
      reasons.add("too little evidence: coverage " + coverage + " below " + m.minCoverage());
    }
    if (confidence < m.minConfidence()) {
      reasons.add("confidence " + confidence + " below the profile's threshold " + m.minConfidence());
    }
    if (v == Verdict.REVIEW && reasons.isEmpty()) {
      reasons.add("the outcome is review");
    }
    return new Result(v, reasons.isEmpty() ? FINAL : PENDING_REVIEW, band, List.copyOf(reasons));
  }
}
