package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionConfigs;
import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.Verdict;
import dev.argus.decide.rules.Autonomy;
import dev.argus.decide.store.DecisionStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Human review of pending decisions: the queue (pending first by confidence or age, with assignee and age), expiring
 * claims, and completion — {@code approve}, {@code reject}, {@code override} (to a given outcome) or {@code escalate}
 * with a reason — which appends a new decision that corrects the reviewed one (the original is never changed) and,
 * for an escalation, opens the next review. SLA per profile ({@code reviewSlaMinutes} of its scoring model).
 */
public final class Reviews {

  public static final List<String> ACTIONS = List.of("approve", "reject", "override", "escalate");

  private final Vertx vertx;
  private final DecideConf conf;
  private final DecisionConfigs configs;
  private final DecisionStore store;

  public Reviews(Vertx vertx, DecideConf conf, DecisionConfigs configs, DecisionStore store) {
    this.vertx = vertx;
    this.conf = conf;
    this.configs = configs;
    this.store = store;
  }

  /** The review a pending decision opens. */
  public static JsonObject reviewOf(JsonObject decision, long slaMinutes) {
    long created = decision.getLong("createdAtMs");
    return new JsonObject().put("reviewId", "rev-" + decision.getString("decisionId").replaceFirst("^dec-", ""))
        .put("decisionId", decision.getString("decisionId")).put("profile", decision.getString("profile"))
        .put("subjectId", decision.getString("subjectId")).put("outcome", decision.getString("outcome"))
        .put("riskScore", decision.getDouble("riskScore")).put("confidence", decision.getDouble("calibratedConfidence",
            decision.getDouble("confidence")))
        .put("createdAtMs", created).put("dueAtMs", created + slaMinutes * 60_000);
  }

  public Future<JsonObject> list(String status, String sort, int limit) {
    if (!List.of("pending", "completed").contains(status)) {
      return Future.failedFuture(ApiException.badRequest("invalid_parameter", "status must be pending or completed"));
    }
    if (!List.of("confidence", "age").contains(sort)) {
      return Future.failedFuture(ApiException.badRequest("invalid_parameter", "sort must be confidence or age"));
    }
    long now = System.currentTimeMillis();
    return store.reviews(status, sort, limit).compose(list -> store.sla(now).map(sla -> {
      JsonArray out = new JsonArray();
      for (JsonObject r : list) {
        Long until = r.getLong("claimExpiresAtMs");
        boolean claimed = r.getString("assignee") != null && until != null && until > now;
        out.add(r.put("ageMs", now - r.getLong("createdAtMs")).put("claimed", claimed)
            .put("assignee", claimed || "completed".equals(status) ? r.getString("assignee") : null)
            .put("breached", "pending".equals(status) ? now > r.getLong("dueAtMs")
                : r.getLong("completedAtMs") > r.getLong("dueAtMs")));
      }
      return new JsonObject().put("reviews", out).put("sla", sla);
    }));
  }

  public Future<JsonObject> claim(String reviewId, String analyst) {
    return store.claim(reviewId, checkAnalyst(analyst), System.currentTimeMillis(), conf.claimTtlMs());
  }

  public Future<JsonObject> complete(JsonObject req) {
    String reviewId = req.getString("reviewId");
    String analyst = checkAnalyst(req.getValue("analyst"));
    Object a = req.getValue("action");
    if (!(a instanceof String action) || !ACTIONS.contains(action)) {
      throw ApiException.badRequest("invalid_field", "field 'action' must be one of " + ACTIONS);
    }
    Object r = req.getValue("reason");
    if (!(r instanceof String reason) || reason.isBlank() || reason.length() > 2000) {
      throw ApiException.badRequest("invalid_field", "field 'reason' must be a non-empty string of at most 2000 characters");
    }
    return store.review(reviewId).compose(found -> {
      JsonObject review = found.orElseThrow(() -> ApiException.notFound("unknown_review", "no review '" + reviewId + "'"));
      DecisionProfile profile = DecisionProfile.fromWire(review.getString("profile"));
      Verdict verdict = switch (action) {
        case "approve" -> Verdict.PASS;
        case "reject" -> Verdict.DENY;
        case "override" -> {
          Object o = req.getValue("outcome");
          if (!(o instanceof String s)) {
            throw ApiException.badRequest("invalid_field", "an override needs field 'outcome'");
          }
          yield profile.verdict(s);
        }
        default -> profile.verdict(review.getString("outcome"));
      };
      return store.get(review.getString("decisionId")).compose(orig -> {
        JsonObject original = orig.orElseThrow(() -> ApiException.notFound("unknown_decision",
            "the reviewed decision is missing"));
        long now = System.currentTimeMillis();
        boolean escalate = "escalate".equals(action);
        JsonObject next = correction(original, profile, verdict, escalate, analyst, action, reason, reviewId, now);
        JsonObject nextReview = escalate ? reviewOf(next, configs.live(profile).reviewSlaMinutes()) : null;
        return store.complete(reviewId, analyst, action, reason, next, nextReview, now).map(done -> {
          vertx.eventBus().publish(Addresses.DECISIONS_CREATED, DecisionRecord.summary(next));
          vertx.eventBus().publish(Addresses.REVIEWS_COMPLETED, new JsonObject().put("reviewId", reviewId)
              .put("decisionId", original.getString("decisionId")).put("newDecisionId", next.getString("decisionId"))
              .put("action", action).put("analyst", analyst).put("reason", reason));
          return new JsonObject().put("review", done).put("decision", next)
              .put("nextReviewId", nextReview == null ? null : nextReview.getString("reviewId"));
        });
      });
    });
  }

  static JsonObject correction(JsonObject original, DecisionProfile profile, Verdict verdict, boolean escalate,
                               String analyst, String action, String reason, String reviewId, long now) {
    JsonObject next = DecisionRecord.summary(original);
    int level = original.getInteger("escalationLevel", 0) + (escalate ? 1 : 0);
    return next.put("decisionId", "dec-" + UUID.randomUUID()).put("correctsDecisionId", original.getString("decisionId"))
        .put("outcome", profile.outcome(verdict)).put("status", escalate ? Autonomy.PENDING_REVIEW : Autonomy.FINAL)
        .put("statusReasons", new JsonArray().add((escalate ? "escalated by " : "reviewed by ") + analyst + ": " + reason))
        .put("review", new JsonObject().put("reviewId", reviewId).put("analyst", analyst).put("action", action)
            .put("reason", reason).put("originalOutcome", original.getString("outcome")))
        .put("escalationLevel", level)
        .put("createdAt", Instant.ofEpochMilli(now).toString()).put("createdAtMs", now);
  }

  static String checkAnalyst(Object v) {
    if (!(v instanceof String s) || s.isBlank() || s.length() > 100 || !s.matches("[\\p{L}\\p{N}._@ -]+")) {
      throw ApiException.badRequest("invalid_field", "field 'analyst' must be a name of 1-100 letters, digits, "
          + "spaces or ._@-");
    }
    return s.strip();
  }
}
