package dev.argus.decide;

import dev.argus.decide.rules.Scoring;
import dev.argus.decide.rules.Signal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One specialist assessor (identity, network or behaviour), a pure function over the signals of its domain:
 * {@code score = 100 * sum(weight * scaled) / sum(weight)} over its known signals (or, when the profile's model
 * accumulates, {@code 100 * (1 - exp(-sum(weight * scaled)))}), the outcome by the profile's
 * thresholds, {@code confidence = coverage of its domain * (0.5 + 0.5 * decisiveness)} as in {@link Scoring}.
 * No known signal in its domain → it abstains.
 */
public final class Assessor {

  private Assessor() {
  }

  /** Request {@code {profile, domain, signals, thresholds: {review, reject}}} → a vote (outcome as a verdict name). */
  public static JsonObject assess(JsonObject request) {
    String domain = request.getString("domain");
    JsonObject th = request.getJsonObject("thresholds", new JsonObject());
    double review = th.getDouble("review", 35.0);
    double reject = th.getDouble("reject", 65.0);
    double known = 0;
    double total = 0;
    double sum = 0;
    JsonArray cites = new JsonArray();
    for (Object o : request.getJsonArray("signals", new JsonArray())) {
      Signal s = Signal.fromJson((JsonObject) o);
      if (!domain.equals(s.domain())) {
        continue;
      }
      total += s.weight();
      if (s.known()) {
        known += s.weight();
        sum += s.weight() * s.scaled();
        if (s.scaled() > 0 && s.cite() != null && !cites.contains(s.cite())) {
          cites.add(s.cite());
        }
      }
    }
    JsonObject vote = new JsonObject().put("assessor", domain);
    if (known == 0) {
      return vote.put("abstained", true).put("confidence", 0.0).put("citations", cites)
          .put("note", "no measured signal in the " + domain + " domain");
    }
    // the profile's combination: the weighted mean, or accumulated evidence (sum is then the evidence in units)
    double score = Scoring.round("accumulate".equals(request.getString("combine")) ? Scoring.accumulated(sum)
        : 100 * sum / known, 2);
    String verdict = score >= reject ? "DENY" : score >= review ? "REVIEW" : "PASS";
    double coverage = total == 0 ? 0 : known / total;
    double distance = Math.min(Math.abs(score - review), Math.abs(score - reject));
    double confidence = Scoring.round(coverage * (0.5 + 0.5 * Math.min(1, distance / Scoring.DECISIVE_DISTANCE)), 4);
    return vote.put("abstained", false).put("verdict", verdict).put("score", score).put("confidence", confidence)
        .put("citations", cites).put("note", domain + " score " + score);
  }
}
