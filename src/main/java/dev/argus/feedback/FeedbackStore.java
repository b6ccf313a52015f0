package dev.argus.feedback;

import dev.argus.feedback.calibration.Calibrator;
import dev.argus.feedback.calibration.Outcome;
import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;

/**
 * Feedback, the decisions it is about, and the fitted calibrators. Two implementations (embedded SQLite and
 * PostgreSQL) pass one contract test suite ({@code FeedbackStoreContract}); schema
 * {@code db/migration/<dialect>/V11_5__feedback.sql}. Every method is non-blocking.
 */
public interface FeedbackStore {

  /** Counts of verdicts under one key (an analyst, a profile, a reason), with the mean rating of chat answers. */
  record Tally(String key, long count, long correct, long incorrect, Double meanRating) {
  }

  /** What a tally groups by. */
  enum By { ANALYST, PROFILE, REASON }

  /** Inserts the decision, or refreshes everything but its label when it is known already. */
  Future<Void> indexDecision(DecisionRef decision);

  Future<Optional<DecisionRef>> decision(String decisionId);

  /**
   * Stores a verdict; on a decision with a label, also makes it the decision's latest label (one transaction). The
   * decision must have been indexed first.
   */
  default Future<Void> record(Feedback feedback) {
    return record(feedback, true);
  }

  /**
   * As {@link #record(Feedback)}; with {@code labels} false the verdict is stored without labelling any decision
   * (feedback on a review's correction, which is a person's verdict and never indexed).
   */
  Future<Void> record(Feedback feedback, boolean labels);

  /** Verdicts on one decision or run, newest first. */
  Future<List<Feedback>> forTarget(String targetId, int limit);

  /** Unlabelled decisions (of a profile, or all when null), lowest calibrated (else raw) confidence first. */
  Future<List<DecisionRef>> queue(String profile, int limit);

  /** Unlabelled decisions about one subject (a seller, a transaction), oldest first, at most {@code limit}. */
  Future<List<DecisionRef>> unlabelledAbout(String subjectId, int limit);

  /** Labelled decisions of a profile (all when null) as raw confidence and whether they were right. */
  Future<List<Outcome>> outcomes(String profile);

  /** Labelled decisions that carried a calibrated confidence when made, as that confidence and the verdict. */
  Future<List<Outcome>> calibratedOutcomes(String profile);

  /** Labelled decisions per profile. */
  Future<java.util.Map<String, Long>> labelCounts();

  /** Verdicts grouped by {@code by}, since {@code sinceMs} (all when null). */
  Future<List<Tally>> tallies(By by, Long sinceMs);

  /** All verdicts since {@code sinceMs} (all when null) as one tally with key {@code "all"}. */
  Future<Tally> total(Long sinceMs);

  Future<Void> saveCalibrator(Calibrator calibrator);

  /** The newest calibrator of every profile. */
  Future<List<Calibrator>> latestCalibrators();

  /** The versions of one profile's calibrators, newest first (without their blocks). */
  Future<List<Calibrator>> calibratorHistory(String profile, int limit);
}
