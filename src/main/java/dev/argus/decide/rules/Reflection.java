package dev.argus.decide.rules;

import dev.argus.decide.model.Verdict;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Reflect's four rules, exactly, as a pure function (the LLM path and the rule path both end here):
 * <ol>
 *   <li>{@code signals_disagree}: the known signals split into those pointing at risk (scaled &ge; 0.5) and those
 *   pointing away (scaled &lt; 0.5); they disagree when the lighter side carries more than 30% of the known weight;</li>
 *   <li>{@code overconfident}: confidence above 0.8 with fewer than 3 tools used (tools that succeeded);</li>
 *   <li>{@code outcome_contradicts_risk}: risk above 60 with an approving outcome, or below 20 with a rejecting one;</li>
 *   <li>{@code failed_tool_matters}: a tool failed whose signals weigh in the scoring model.</li>
 * </ol>
 * Two or more concerns revise the decision: {@code revisedAction} REVIEW (a person decides), a
 * {@code contraArgument} naming the concerns, {@code reflectionConfidence = 1 - 0.25 * concerns} (at least 0) and the
 * decision's confidence multiplied by 0.8.
 */
public final class Reflection {

  public static final double DISAGREEMENT = 0.30;
  public static final double OVERCONFIDENT = 0.8;
  public static final int MIN_TOOLS = 3;
  public static final double HIGH_RISK = 60;
  public static final double LOW_RISK = 20;
  public static final double REVISION_FACTOR = 0.8;

  private Reflection() {
  }

  public record Concern(String rule, String detail) {
    JsonObject toJson() {
      return new JsonObject().put("rule", rule).put("detail", detail);
    }
  }

  public record Result(List<Concern> concerns, boolean revised, Verdict revisedAction, String contraArgument,
                       double reflectionConfidence, double confidenceBefore, double confidence) {

    public JsonObject toJson(dev.argus.decide.model.DecisionProfile p) {
      JsonArray c = new JsonArray();
      concerns.forEach(x -> c.add(x.toJson()));
      return new JsonObject().put("concerns", c).put("revised", revised)
          .put("revisedAction", revisedAction == null ? null : p.outcome(revisedAction))
          .put("contraArgument", contraArgument).put("reflectionConfidence", reflectionConfidence)
          .put("confidenceBefore", confidenceBefore).put("confidenceAfter", confidence);
    }
  }

  /**
   * @param failedTools the tools that failed and whose domain matters to the outcome (already filtered)
   * @param toolsUsed   how many distinct tools succeeded
   */
  public static Result reflect(List<Signal> signals, double confidence, int toolsUsed, double riskScore,
                               Verdict verdict, List<String> failedTools) {
    List<Concern> concerns = new ArrayList<>();
    double up = 0;
    double down = 0;
    for (Signal s : signals) {
      if (!s.known() || s.weight() <= 0) {
        continue;
      }
      if (s.scaled() >= 0.5) {
        up += s.weight();
      } else {
        down += s.weight();
      }
    }
    double total = up + down;
    if (total > 0) {
      double minority = Math.min(up, down) / total;
      if (minority > DISAGREEMENT) {
        concerns.add(new Concern("signals_disagree", String.format(java.util.Locale.ROOT,
            "%.0f%% of the measured weight points the other way (risk side %.2f, no-risk side %.2f)",
            100 * minority, up, down)));
      }
    }
    if (confidence > OVERCONFIDENT && toolsUsed < MIN_TOOLS) {
      concerns.add(new Concern("overconfident", "confidence " + confidence + " above " + OVERCONFIDENT
          + " with only " + toolsUsed + " tool(s) used"));
    }
    if (riskScore > HIGH_RISK && verdict == Verdict.PASS) {
      concerns.add(new Concern("outcome_contradicts_risk", "risk " + riskScore + " above " + HIGH_RISK
          + " with an approving outcome"));
    } else if (riskScore < LOW_RISK && verdict == Verdict.DENY) {
      concerns.add(new Concern("outcome_contradicts_risk", "risk " + riskScore + " below " + LOW_RISK
          + " with a rejecting outcome"));
    }
    if (!failedTools.isEmpty()) {
      concerns.add(new Concern("failed_tool_matters", "tool(s) " + String.join(", ", failedTools)
          + " failed and their signals weigh in the outcome"));
    }
    if (concerns.size() < 2) {
      return new Result(List.copyOf(concerns), false, null, null, 1.0 - 0.25 * concerns.size(), confidence,
          confidence);
    }
    StringBuilder contra = new StringBuilder("The outcome may be wrong: ");
    for (int i = 0; i < concerns.size(); i++) {
      contra.append(i == 0 ? "" : "; ").append(concerns.get(i).detail());
    }
    contra.append(". A person should decide.");
    double reflectionConfidence = Math.max(0, Scoring.round(1.0 - 0.25 * concerns.size(), 4));
    return new Result(List.copyOf(concerns), true, Verdict.REVIEW, contra.toString(), reflectionConfidence,
        confidence, Scoring.round(confidence * REVISION_FACTOR, 4));
  }
}
