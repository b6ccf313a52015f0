package dev.argus.feedback;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.logging.Logger;

/**
 * Labels from completed reviews ({@code argus.reviews.completed}): the reviewer's outcome — the outcome of the new
 * decision the review appended — is the truth about the reviewed decision. Approve, reject and override label it
 * ({@code correct} when the reviewer kept its outcome, else {@code incorrect}: a REJECT/BLOCK turned into an approval
 * is a false positive, an APPROVE/ALLOW turned into a rejection a false negative), with {@code source: review} and
 * the reviewer as analyst; an escalation labels nothing (no verdict yet), nor does a reviewed decision whose own
 * outcome was REVIEW (neither right nor wrong about the subject, as with closed cases), nor a review that ends in
 * REVIEW. Both decisions are read through {@code argus.decisions.get} (or the index when no decision service runs).
 */
final class ReviewLabels {

  private static final Logger LOG = Logger.getLogger(ReviewLabels.class.getName());
  private static final Set<String> BLOCKING = Set.of("REJECT", "BLOCK");
  private static final Set<String> APPROVING = Set.of("APPROVE", "ALLOW");

  private final FeedbackService service;

  ReviewLabels(FeedbackService service) {
    this.service = service;
  }

  /** Handles one {@code argus.reviews.completed} body; completes with whether a label was recorded. Never fails. */
  Future<Boolean> onReviewCompleted(JsonObject event) {
    String action = event.getString("action");
    String reviewed = event.getString("decisionId");
    String corrected = event.getString("newDecisionId");
    if ("escalate".equals(action) || reviewed == null || corrected == null) {
      return Future.succeededFuture(false);
    }
    return service.decision(reviewed).compose(original -> service.decision(corrected).compose(verdict -> {
      String was = original.outcome();
      String truth = verdict.outcome();
      boolean judged = (BLOCKING.contains(was) || APPROVING.contains(was))
          && (BLOCKING.contains(truth) || APPROVING.contains(truth));
      if (!judged) {
        return Future.succeededFuture(false);
      }
      boolean correct = was.equals(truth);
      Reason reason = correct ? Reason.GOOD_DECISION
          : BLOCKING.contains(was) ? Reason.FALSE_POSITIVE : Reason.FALSE_NEGATIVE;
      return service.labelFromReview(original, truth, correct ? Label.CORRECT : Label.INCORRECT, reason,
          event.getString("analyst", "reviewer"), event.getString("reviewId"), event.getString("reason"))
          .map(true);
    })).recover(err -> {
      LOG.warning("review " + event.getString("reviewId") + " not used as a label: " + err.getMessage());
      return Future.succeededFuture(false);
    });
  }
}
