package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.bus.InRun;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.ScoringModel;
import dev.argus.decide.rules.Consensus;
import dev.argus.decide.rules.Signal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine's calls to other parts over the bus, each with a short timeout and a stated fallback:
 * the three assessors (a silent assessor abstains), citation validation by the graph
 * ({@value #CITATIONS_VALIDATE}; absent or failing → every citation {@code unvalidated} with its base confidence) and
 * calibration ({@value #CALIBRATION_APPLY}; absent or failing → calibrated = raw, recorded as such).
 */
public final class BusCalls {

  /** Owned by {@code citations} (see contracts): validates citations against the graph. */
  public static final String CITATIONS_VALIDATE = "argus.graph.citations.validate";
  /** Owned by {@code feedback}: {@code {profile, confidence}} → {@code {calibrated, calibratorVersion}}. */
  public static final String CALIBRATION_APPLY = "argus.calibration.apply";
  static final List<String> ASSESSORS = List.of(Addresses.DECIDE_ASSESS_IDENTITY, Addresses.DECIDE_ASSESS_NETWORK,
      Addresses.DECIDE_ASSESS_BEHAVIOUR);
  static final List<String> DOMAINS = List.of("identity", "network", "behaviour");

  private final Vertx vertx;
  private final DecideConf conf;

  public BusCalls(Vertx vertx, DecideConf conf) {
    this.vertx = vertx;
    this.conf = conf;
  }

  private Future<JsonObject> request(String address, JsonObject body, long timeoutMs) {
    return vertx.eventBus().<JsonObject>request(address, body, InRun.delivery(timeoutMs))
        .map(m -> m.body());
  }

  /** The three assessors in parallel, merged by the model's strategy. */
  public Future<Consensus.Result> consensus(DecisionProfile profile, ScoringModel model, List<Signal> signals) {
    JsonArray sig = new JsonArray();
    signals.forEach(s -> sig.add(s.toJson()));
    JsonObject req = new JsonObject().put("profile", profile.wire()).put("signals", sig).put("combine", model.combine())
        .put("thresholds",
        new JsonObject().put("review", model.reviewThreshold()).put("reject", model.rejectThreshold()));
    List<Future<Consensus.Vote>> votes = new ArrayList<>();
    for (int i = 0; i < ASSESSORS.size(); i++) {
      String domain = DOMAINS.get(i);
      votes.add(request(ASSESSORS.get(i), req, conf.assessorTimeoutMs()).map(BusCalls::vote)
          .otherwise(err -> new Consensus.Vote(domain, dev.argus.decide.model.Verdict.REVIEW, 0, List.of(), true,
              "assessor unavailable: " + err.getMessage())));
    }
    return Future.all(votes).map(all -> {
      List<Consensus.Vote> list = new ArrayList<>();
      for (int i = 0; i < votes.size(); i++) {
        list.add(all.resultAt(i));
      }
      return Consensus.merge(model.strategy(), list);
    });
  }

  static Consensus.Vote vote(JsonObject j) {
    boolean abstained = j.getBoolean("abstained", false);
    dev.argus.decide.model.Verdict v = abstained ? dev.argus.decide.model.Verdict.REVIEW
        : dev.argus.decide.model.Verdict.valueOf(j.getString("verdict"));
    return new Consensus.Vote(j.getString("assessor"), v, j.getDouble("confidence", 0.0),
        j.getJsonArray("citations", new JsonArray()).stream().map(String::valueOf).toList(), abstained,
        j.getString("note"));
  }

  /**
   * Validates citations ({@code [{citation, base}]}) with the graph; returns {@code citation → {status, confidence,
   * ...}}. Absent or failing: {@code unvalidated} with the base confidence (0.9 tool succeeded, 0.3 failed, 0.1 none).
   */
  public Future<JsonObject> validate(List<JsonObject> citations, JsonArray evidence) {
    JsonObject fallback = new JsonObject();
    JsonArray req = new JsonArray();
    for (JsonObject c : citations) {
      fallback.put(c.getString("citation"), new JsonObject().put("citation", c.getString("citation"))
          .put("status", "unvalidated").put("confidence", c.getDouble("base")));
      req.add(new JsonObject().put("citation", c.getString("citation")));
    }
    if (citations.isEmpty()) {
      return Future.succeededFuture(fallback);
    }
    return request(CITATIONS_VALIDATE, new JsonObject().put("citations", req).put("evidence", evidence),
        conf.citationTimeoutMs()).map(reply -> {
          JsonObject out = fallback.copy();
          for (Object o : reply.getJsonArray("results", new JsonArray())) {
            JsonObject r = (JsonObject) o;
            if (out.containsKey(r.getString("citation"))) {
              out.put(r.getString("citation"), r);
            }
          }
          return out;
        }).otherwise(err -> fallback);
  }

  /** {calibrated, calibratorVersion}; raw when no calibrator answers in time. */
  public Future<JsonObject> calibrate(DecisionProfile profile, double confidence) {
    return request(CALIBRATION_APPLY, new JsonObject().put("profile", profile.wire()).put("confidence", confidence),
        conf.calibrationTimeoutMs())
        .map(r -> r.getValue("calibrated") instanceof Number n
            ? new JsonObject().put("calibrated", n.doubleValue()).put("calibratorVersion", r.getString("calibratorVersion"))
            : raw(confidence, "the calibrator's reply has no number"))
        .otherwise(err -> raw(confidence, "no calibrator: " + err.getMessage()));
  }

  private static JsonObject raw(double confidence, String why) {
    return new JsonObject().put("calibrated", confidence).put("calibratorVersion", "raw").put("note", why);
  }
}
