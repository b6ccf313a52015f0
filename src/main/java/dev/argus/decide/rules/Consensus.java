package dev.argus.decide.rules;

import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.Verdict;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the specialist assessors' votes, a pure function. Strategies:
 * <ul>
 *   <li>{@code majority}: the verdict more than half of the voters gave; otherwise REVIEW;</li>
 *   <li>{@code unanimous}: the verdict every voter gave; otherwise REVIEW;</li>
 *   <li>{@code weighted}: the verdict with the largest sum of the voters' (calibrated) confidence; a tie → REVIEW.</li>
 * </ul>
 * Voters that abstained (no evidence in their domain) do not count. Any two counting voters that differ is a
 * disagreement: recorded, and it escalates the decision to review.
 */
public final class Consensus {

  private Consensus() {
  }

  /** One assessor's vote. */
  public record Vote(String assessor, Verdict verdict, double confidence, List<String> citations, boolean abstained,
                     String note) {

    public JsonObject toJson(DecisionProfile p) {
      return new JsonObject().put("assessor", assessor).put("outcome", abstained ? null : p.outcome(verdict))
          .put("confidence", confidence).put("citations", new JsonArray(citations)).put("abstained", abstained)
          .put("note", note);
    }

    public static Vote fromJson(JsonObject j, DecisionProfile p) {
      boolean abstained = j.getBoolean("abstained", false);
      return new Vote(j.getString("assessor"), abstained ? Verdict.REVIEW : p.verdict(j.getString("outcome")),
          j.getDouble("confidence", 0.0), j.getJsonArray("citations", new JsonArray()).stream().map(String::valueOf)
          .toList(), abstained, j.getString("note"));
    }
  }

  public record Result(String strategy, Verdict verdict, boolean disagreement, List<Vote> votes, String detail) {

    public JsonObject toJson(DecisionProfile p) {
      JsonArray v = new JsonArray();
      votes.forEach(x -> v.add(x.toJson(p)));
      return new JsonObject().put("strategy", strategy).put("outcome", verdict == null ? null : p.outcome(verdict))
          .put("disagreement", disagreement).put("votes", v).put("detail", detail);
    }
  }

  public static Result merge(String strategy, List<Vote> votes) {
    List<Vote> counting = votes.stream().filter(v -> !v.abstained()).toList();
    if (counting.isEmpty()) {
      return new Result(strategy, Verdict.REVIEW, false, votes, "every assessor abstained: review");
    }
    Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
    Map<Verdict, Double> weights = new EnumMap<>(Verdict.class);
    for (Vote v : counting) {
      counts.merge(v.verdict(), 1, Integer::sum);
      weights.merge(v.verdict(), v.confidence(), Double::sum);
    }
    boolean disagreement = counts.size() > 1;
    Verdict merged;
    String detail;
    switch (strategy) {
      case "unanimous" -> {
        merged = disagreement ? Verdict.REVIEW : counting.get(0).verdict();
        detail = disagreement ? "not unanimous: review" : "unanimous";
      }
      case "weighted" -> {
        Verdict best = null;
        double top = -1;
        boolean tie = false;
        for (Map.Entry<Verdict, Double> e : weights.entrySet()) {
          if (e.getValue() > top + 1e-9) {
            best = e.getKey();
            top = e.getValue();
            tie = false;
          } else if (Math.abs(e.getValue() - top) <= 1e-9) {
            tie = true;
          }
        }
        merged = tie ? Verdict.REVIEW : best;
        detail = "confidence per outcome " + weights + (tie ? " (tie: review)" : "");
      }
      default -> {
        Verdict best = null;
        for (Map.Entry<Verdict, Integer> e : counts.entrySet()) {
          if (e.getValue() * 2 > counting.size()) {
            best = e.getKey();
          }
        }
        merged = best == null ? Verdict.REVIEW : best;
        detail = "votes per outcome " + counts + (best == null ? " (no majority: review)" : "");
      }
    }
    return new Result(strategy, merged, disagreement, votes, detail);
  }
}
