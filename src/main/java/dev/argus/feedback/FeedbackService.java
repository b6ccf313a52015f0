package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.FeedbackConf;
import dev.argus.feedback.calibration.Reliability;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Verdicts on decisions and chat answers: checks that the target exists (a decision through {@code argus.decisions.get}
 * — when no decision service is deployed, the decisions feedback has indexed from {@code argus.decisions.created} — a
 * run through {@code argus.agent.run.get}), stores the verdict, and asks {@link Calibration} for a refit when a
 * decision got a label. Also the queue and the stats.
 */
final class FeedbackService {

  static final long DAY_MS = 24L * 3600 * 1000;
  private static final Set<String> ONBOARDING = Set.of("APPROVE", "REVIEW", "REJECT");
  private static final Set<String> TRANSACTION = Set.of("ALLOW", "REVIEW", "BLOCK");

  private final Vertx vertx;
  private final FeedbackStore store;
  private final Calibration calibration;
  private final FeedbackConf conf;

  FeedbackService(Vertx vertx, FeedbackStore store, Calibration calibration, FeedbackConf conf) {
    this.vertx = vertx;
    this.store = store;
    this.calibration = calibration;
    this.conf = conf;
  }

  /**
   * Indexes a decision from {@code argus.decisions.created} (a malformed one is refused with 422). A review's
   * correction ({@code correctsDecisionId}) is a person's verdict, not the engine's: it labels the reviewed decision
   * ({@link ReviewLabels}) and is not itself queued or calibrated.
   */
  Future<Void> index(JsonObject decision) {
    if (decision.getValue("correctsDecisionId") != null) {
      return Future.succeededFuture();
    }
    // A body that is not a decision (DecisionRef throws) fails the future: the consumer logs it, nothing is indexed.
    return Future.succeededFuture(decision).map(DecisionRef::fromDecision).compose(store::indexDecision);
  }

  Future<JsonObject> submit(FeedbackRequest req) {
    long now = System.currentTimeMillis();
    String id = "fb-" + UUID.randomUUID();
    if (req.target() == FeedbackRequest.Target.RUN) {
      return run(req.targetId()).compose(run -> {
        Feedback f = new Feedback(id, req.target(), req.targetId(), run.getString("profile", "unknown"), req.label(),
            req.reason(), null, req.rating(), req.comment(), req.analyst(), Feedback.SOURCE_ANALYST, null, now);
        return store.record(f).map(v -> recorded(f, null, null));
      });
    }
    return target(req.targetId()).compose(t -> {
      DecisionRef d = t.ref();
      checkOutcome(req, d);
      Feedback f = new Feedback(id, req.target(), req.targetId(), d.profile(), req.label(), req.reason(),
          req.trueOutcome(), null, req.comment(), req.analyst(), Feedback.SOURCE_ANALYST, d.confidence(), now);
      if (t.correction()) {
        // a review's correction (see index): the verdict on it is kept, but it labels and calibrates nothing
        return store.record(f, false).map(v -> recorded(f, d, null));
      }
      return store.record(f)
          .compose(v -> calibration.maybeRefit(d.profile()))
          .map(c -> recorded(f, d, new JsonObject().put("profile", d.profile()).put("version", c.version())
              .put("fittedOnLabels", c.labels())));
    });
  }

  /**
   * Labels the decision from a closed case (source {@code case}, analyst {@code case:<id>}); completes with whether it
   * did (a REVIEW is left alone).
   */
  Future<Boolean> labelFromCase(DecisionRef d, String caseId, boolean fraud) {
    boolean blocking = "REJECT".equals(d.outcome()) || "BLOCK".equals(d.outcome());
    boolean approving = "APPROVE".equals(d.outcome()) || "ALLOW".equals(d.outcome());
    if (!blocking && !approving) {
      return Future.succeededFuture(false); // a REVIEW is neither right nor wrong about the case's outcome
    }
    boolean correct = blocking == fraud;
    String trueOutcome = fraud ? (ONBOARDING.contains(d.outcome()) ? "REJECT" : "BLOCK")
        : (ONBOARDING.contains(d.outcome()) ? "APPROVE" : "ALLOW");
    Feedback f = new Feedback("fb-" + UUID.randomUUID(), FeedbackRequest.Target.DECISION, d.decisionId(), d.profile(),
        correct ? Label.CORRECT : Label.INCORRECT, correct ? Reason.GOOD_DECISION
        : (blocking ? Reason.FALSE_POSITIVE : Reason.FALSE_NEGATIVE), trueOutcome, null,
        "closed case " + caseId + (fraud ? " (fraud)" : " (legit)"), "case:" + caseId, Feedback.SOURCE_CASE,
        d.confidence(), System.currentTimeMillis());
    return store.record(f).compose(v -> calibration.maybeRefit(d.profile())).onSuccess(c -> publish(f)).map(true);
  }

  /** Labels the reviewed decision with the reviewer's outcome (source {@code review}); refits when due. */
  Future<Void> labelFromReview(DecisionRef d, String trueOutcome, Label label, Reason reason, String analyst,
                               String reviewId, String comment) {
    String note = "review " + reviewId + (comment == null ? "" : ": " + comment);
    Feedback f = new Feedback("fb-" + UUID.randomUUID(), FeedbackRequest.Target.DECISION, d.decisionId(), d.profile(),
        label, reason, trueOutcome, null, note.length() > 4000 ? note.substring(0, 4000) : note,
        analyst.length() > 128 ? analyst.substring(0, 128) : analyst, Feedback.SOURCE_REVIEW, d.confidence(),
        System.currentTimeMillis());
    return store.record(f).compose(v -> calibration.maybeRefit(d.profile())).onSuccess(c -> publish(f)).mapEmpty();
  }

  private JsonObject recorded(Feedback f, DecisionRef d, JsonObject calibrationState) {
    publish(f);
    JsonObject out = new JsonObject().put("feedback", f.toJson());
    if (d != null) {
      out.put("decision", new JsonObject().put("decisionId", d.decisionId()).put("profile", d.profile())
          .put("outcome", d.outcome()).put("confidence", d.confidence())
          .put("calibratedConfidence", d.calibratedConfidence()));
    }
    if (calibrationState != null) {
      out.put("calibration", calibrationState);
    }
    return out;
  }

  private void publish(Feedback f) {
    vertx.eventBus().publish(Addresses.FEEDBACK_RECORDED, f.toJson());
  }

  /** A true outcome must belong to the decision's family, differ from it when incorrect and equal it when correct. */
  private static void checkOutcome(FeedbackRequest req, DecisionRef d) {
    String truth = req.trueOutcome();
    if (truth == null || d.outcome() == null) {
      return;
    }
    Set<String> family = ONBOARDING.contains(d.outcome()) && !"REVIEW".equals(d.outcome()) ? ONBOARDING
        : TRANSACTION.contains(d.outcome()) && !"REVIEW".equals(d.outcome()) ? TRANSACTION
        : d.profile().contains("onboarding") ? ONBOARDING : d.profile().contains("transaction") ? TRANSACTION : null;
    if (family != null && !family.contains(truth)) {
      throw ApiException.badRequest("invalid_field", "trueOutcome '" + truth + "' is not an outcome of a decision that "
          + "was " + d.outcome() + "; expected one of " + String.join(", ", family.stream().sorted().toList()));
    }
    if (req.label() == Label.CORRECT && !truth.equals(d.outcome())) {
      throw ApiException.badRequest("inconsistent_feedback", "label 'correct' but trueOutcome " + truth
          + " differs from the decision's outcome " + d.outcome());
    }
    if (req.label() == Label.INCORRECT && truth.equals(d.outcome())) {
      throw ApiException.badRequest("inconsistent_feedback", "label 'incorrect' but trueOutcome equals the decision's "
          + "outcome " + d.outcome());
    }
  }

  /** A decision feedback is about, and whether it is a review's correction (read, never indexed: see index). */
  private record Target(DecisionRef ref, boolean correction) {
  }

  /** The decision: from the decision service (then indexed), or from the index when no decision service is deployed. */
  Future<DecisionRef> decision(String id) {
    return target(id).map(Target::ref);
  }

  private Future<Target> target(String id) {
    DeliveryOptions opts = new DeliveryOptions().setSendTimeout(conf.targetTimeoutMs());
    return vertx.eventBus().<JsonObject>request(Addresses.DECISIONS_GET, new JsonObject().put("id", id), opts)
        .compose(msg -> {
          DecisionRef fresh = DecisionRef.fromDecision(msg.body());
          if (msg.body().getValue("correctsDecisionId") != null) {
            return Future.succeededFuture(new Target(fresh, true));
          }
          return store.indexDecision(fresh).compose(v -> store.decision(id))
              .map(found -> new Target(found.orElse(fresh), false));
        }, err -> {
          if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
            return store.decision(id).map(found -> new Target(found.orElseThrow(() -> unknownDecision(id)), false));
          }
          ApiException api = BusFailures.toApi(err);
          return Future.failedFuture(api.status() == 404 ? unknownDecision(id) : api);
        });
  }

  private Future<JsonObject> run(String runId) {
    DeliveryOptions opts = new DeliveryOptions().setSendTimeout(conf.targetTimeoutMs());
    return vertx.eventBus().<JsonObject>request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", runId), opts)
        .map(msg -> msg.body())
        .recover(err -> {
          ApiException api = BusFailures.toApi(err);
          return Future.failedFuture(api.status() == 404
              ? ApiException.notFound("unknown_run", "no run '" + runId + "'") : api);
        });
  }

  private static ApiException unknownDecision(String id) {
    return ApiException.notFound("unknown_decision", "no decision '" + id + "'");
  }

  Future<JsonObject> queue(String profile, int limit) {
    return store.queue(profile, limit).map(items -> {
      JsonArray out = new JsonArray();
      items.forEach(d -> out.add(d.toJson()));
      return new JsonObject().put("items", out).put("profile", profile).put("limit", limit);
    });
  }

  Future<JsonObject> list(String targetId, int limit) {
    return store.forTarget(targetId, limit).map(items -> {
      JsonArray out = new JsonArray();
      items.forEach(f -> out.add(f.toJson()));
      return new JsonObject().put("targetId", targetId).put("items", out);
    });
  }

  Future<JsonObject> stats() {
    long since = System.currentTimeMillis() - DAY_MS;
    return Future.all(List.of(store.total(null), store.total(since), store.tallies(FeedbackStore.By.ANALYST, null),
            store.tallies(FeedbackStore.By.PROFILE, null), store.tallies(FeedbackStore.By.REASON, null),
            store.outcomes(null), store.labelCounts()))
        .map(all -> {
          FeedbackStore.Tally total = all.resultAt(0);
          FeedbackStore.Tally day = all.resultAt(1);
          return new JsonObject().put("total", tally(total, null)).put("last24h", tally(day, null))
              .put("byAnalyst", tallies(all.resultAt(2), "analyst"))
              .put("byProfile", tallies(all.resultAt(3), "profile"))
              .put("byReason", tallies(all.resultAt(4), "reason"))
              .put("accuracyByConfidence", Reliability.of(all.resultAt(5)).toJson())
              .put("labelledDecisions", new JsonObject((java.util.Map<String, Object>) (java.util.Map<?, ?>) all.resultAt(6)));
        });
  }

  private static JsonArray tallies(List<FeedbackStore.Tally> list, String key) {
    JsonArray out = new JsonArray();
    list.forEach(t -> out.add(tally(t, key)));
    return out;
  }

  static JsonObject tally(FeedbackStore.Tally t, String key) {
    JsonObject j = new JsonObject();
    if (key != null) {
      j.put(key, t.key());
    }
    long labelled = t.correct() + t.incorrect();
    j.put("count", t.count()).put("correct", t.correct()).put("incorrect", t.incorrect())
        .put("accuracy", labelled == 0 ? null : (double) t.correct() / labelled).put("meanRating", t.meanRating());
    return j;
  }
}
