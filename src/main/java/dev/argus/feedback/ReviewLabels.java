package dev.argus.feedback;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.logging.Logger;

/**
 * Labels from completed reviews ({@code argus.reviews.completed}): the reviewer's outcome — the outcome of the new
 * decision the review appended — is the truth about the reviewed decision. Approve, reject and override label it, with
 * {@code source: review} and the reviewer as analyst: a REJECT/BLOCK is right when the reviewer also rejects, else a
 * false positive; an APPROVE/ALLOW is right when the reviewer also approves, else a false negative; a REVIEW (the
 * usual reviewed decision: it held the subject for a person) is right when the reviewer rejects and a false positive
 * when the reviewer approves. An escalation labels nothing (no verdict yet), nor does an override to REVIEW. Both
 * decisions are read through {@code argus.decisions.get} (or the index when no decision service runs).
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
      boolean holds = BLOCKING.contains(was) || "REVIEW".equals(was);
      if (!(holds || APPROVING.contains(was)) || !(BLOCKING.contains(truth) || APPROVING.contains(truth))) {
        return Future.succeededFuture(false);
      }
      boolean correct = holds == BLOCKING.contains(truth);
      Reason reason = correct ? Reason.GOOD_DECISION : holds ? Reason.FALSE_POSITIVE : Reason.FALSE_NEGATIVE;
      return service.labelFromReview(original, truth, correct ? Label.CORRECT : Label.INCORRECT, reason,
          event.getString("analyst", "reviewer"), event.getString("reviewId"), event.getString("reason"))
          .map(true);
    })).recover(err -> {
      LOG.warning("review " + event.getString("reviewId") + " not used as a label: " + err.getMessage());
      return Future.succeededFuture(false);
    });
  }
}
