package dev.argus.decide;

import dev.argus.decide.model.PolicySet;
import dev.argus.decide.phases.DecisionContext;
import dev.argus.decide.rules.Autonomy;
import dev.argus.decide.rules.Consensus;
import dev.argus.decide.rules.Reflection;
import dev.argus.decide.rules.Scoring;
import dev.argus.decide.rules.Signal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * Builds the decision JSON that is returned, stored (append-only) and exported: everything the issue asks a record to
 * hold — subject, outcome, risk, raw and calibrated confidence, reasons with validated citations, the signal snapshot
 * (replayable), tools with input and output fingerprints, policy version and fired rules, reflection, consensus
 * votes, scoring/prompt/model versions, run id, timings and the run's trace.
 */
public final class DecisionRecord {

  public static final String ENGINE_VERSION = "decide-1";

  private DecisionRecord() {
  }

  public static JsonObject build(DecisionContext ctx, Scoring.Result scored, Reflection.Result refl,
                                 List<PolicySet.Fired> fired, Autonomy.Result auto, Consensus.Result cons,
                                 JsonObject cites, JsonObject cal, PeerStats peers, JsonObject rescored) {
    JsonArray reasons = new JsonArray();
    JsonArray explanation = new JsonArray();
    String subjectEntity = "[entity:seller:" + ctx.sellerId + "]";
    for (Signal s : Reasons.top(scored.signals())) {
      PeerStats.Comparison peer = peers.compare(ctx.profile.wire(), s.name(), s.raw());
      JsonArray c = new JsonArray();
      for (JsonObject base : Reasons.citations(s, subjectEntity)) {
        JsonObject v = cites.getJsonObject(base.getString("citation"), new JsonObject()
            .put("status", "unvalidated").put("confidence", base.getDouble("base")));
        c.add(new JsonObject().put("citation", base.getString("citation")).put("status", v.getString("status"))
            .put("confidence", v.getDouble("confidence")).put("reasoning", v.getJsonArray("reasoning")));
      }
      reasons.add(new JsonObject().put("text", Reasons.text(s, peer)).put("signal", s.name())
          .put("contribution", s.contribution()).put("citations", c));
      JsonObject e = new JsonObject().put("signal", s.name()).put("value", s.raw()).put("contribution", s.contribution())
          .put("domain", s.domain());
      if (peer != null) {
        e.put("peers", new JsonObject().put("count", peer.peers()).put("shareBelow", Scoring.round(peer.shareBelow(), 4))
            .put("median", peer.median()).put("p90", peer.p90()));
      }
      explanation.add(e);
    }
    if (reasons.isEmpty()) {
      reasons.add(new JsonObject().put("text", "no measured signal is above its no-risk level (coverage "
          + scored.coverage() + ")").put("signal", null).put("contribution", 0.0).put("citations", nothingFound(scored)));
    }
    for (PolicySet.Fired f : fired) {
      reasons.add(Reasons.policyReason(ctx.profile, f));
    }
    if (refl.revised()) {
      reasons.add(new JsonObject().put("text", refl.contraArgument()).put("signal", null).put("contribution", 0.0)
          .put("citations", new JsonArray()));
    }
    JsonArray signals = new JsonArray();
    JsonObject snapshot = new JsonObject();
    for (Signal s : scored.signals()) {
      signals.add(s.toJson());
      snapshot.put(s.name(), s.raw());
    }
    JsonArray firedJson = new JsonArray();
    fired.forEach(f -> firedJson.add(f.toJson(ctx.profile)));
    JsonArray tools = new JsonArray();
    for (Object o : ctx.evidence) {
      JsonObject e = (JsonObject) o;
      tools.add(new JsonObject().put("index", e.getInteger("index")).put("tool", e.getString("tool"))
          .put("params", e.getJsonObject("params")).put("success", e.getBoolean("success"))
          .put("error", e.getString("error")).put("durationMs", e.getLong("durationMs"))
          .put("attempts", e.getInteger("attempts"))
          .put("inputFingerprint", fingerprint(e.getJsonObject("params")))
          .put("outputFingerprint", e.getValue("data") == null ? null : fingerprint(e.getJsonObject("data"))));
    }
    JsonObject timings = ctx.timings.copy().put("totalMs", ctx.elapsedMs());
    JsonObject versions = new JsonObject().put("engine", ENGINE_VERSION).put("scoring", ctx.model.version())
        .put("policy", ctx.policies.version()).put("prompts", ctx.llm.getJsonObject("prompts"))
        .put("model", ctx.llm.getString("model")).put("calibrator", cal.getString("calibratorVersion"));
    return new JsonObject()
        .put("decisionId", ctx.decisionId).put("runId", ctx.runId).put("profile", ctx.profile.wire())
        .put("subjectId", ctx.subjectId)
        .put("subject", new JsonObject().put("sellerId", ctx.sellerId).put("transactionId", ctx.transactionId)
            .put("amount", ctx.amount).put("currency", ctx.facts.getString("currency"))
            .put("country", ctx.facts.getString("country")).put("entities", new JsonArray(ctx.entities)))
        .put("outcome", ctx.profile.outcome(auto.verdict())).put("riskScore", scored.riskScore())
        .put("riskBand", auto.riskBand()).put("confidence", refl.confidence())
        .put("calibratedConfidence", cal.getDouble("calibrated")).put("calibration", cal)
        .put("coverage", scored.coverage()).put("status", auto.status())
        .put("statusReasons", new JsonArray(auto.reasons()))
        .put("reasons", reasons).put("explanation", new JsonObject().put("topSignals", explanation))
        .put("signals", signals).put("signalSnapshot", snapshot)
        .put("llmAdjustment", ctx.llmAdjustment)
        .put("firedRules", firedJson).put("policyVersion", ctx.policies.version())
        .put("scoringVersion", ctx.model.version())
        .put("reflection", refl.toJson(ctx.profile)).put("consensus", cons.toJson(ctx.profile))
        .put("rescored", rescored)
        .put("hypotheses", new JsonArray(ctx.hypotheses)).put("replans", ctx.replans)
        .put("tools", tools).put("versions", versions).put("llm", ctx.llm.copy())
        .put("timings", timings).put("asOf", ctx.asOf)
        .put("createdAt", Instant.ofEpochMilli(ctx.createdAtMs).toString()).put("createdAtMs", ctx.createdAtMs)
        .put("correctsDecisionId", null)
        .put("trace", new JsonObject().put("steps", ctx.steps.copy()).put("events", ctx.events.trace()));
  }

  private static JsonArray nothingFound(Scoring.Result scored) {
    JsonArray c = new JsonArray();
    scored.signals().stream().filter(Signal::known).map(Signal::cite).distinct().limit(3).forEach(cite ->
        c.add(new JsonObject().put("citation", cite).put("status", "unvalidated").put("confidence", Reasons.NOTHING)));
    return c;
  }

  /** The decision without its trace (the bus event and list views). */
  public static JsonObject summary(JsonObject decision) {
    JsonObject d = decision.copy();
    d.remove("trace");
    return d;
  }

  /** The first 16 hex digits of the SHA-256 of the JSON's encoding. */
  public static String fingerprint(JsonObject json) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest((json == null ? "null" : json.encode())
          .getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
