package dev.argus.config;

/**
 * Section {@code feedback}: analysts' feedback and confidence calibration. A profile's isotonic calibrator is first
 * fitted once it has {@code minLabels} labelled decisions, then refitted whenever {@code refitEvery} more labels have
 * arrived since the last fit. {@code targetTimeoutMs} bounds the look-up of the decision or run a verdict is about;
 * {@code maxQueueLimit} caps {@code GET /api/feedback/queue?limit=}. {@code caseLabels}: a closed case (outcome
 * {@code fraud} or {@code legit}) labels the unlabelled decisions about each of its subjects, and a completed review
 * (approve, reject, override) labels the decision it reviewed. {@code applyCalibration}:
 * serve {@code argus.calibration.apply} (off: the kill switch for a bad calibrator; decisions then record raw
 * confidence, as when no calibrator answers).
 */
public record FeedbackConf(int minLabels, int refitEvery, long targetTimeoutMs, int maxQueueLimit, boolean caseLabels,
                           boolean applyCalibration) {

  public static FeedbackConf from(Settings s) {
    return new FeedbackConf(
        s.intIn("minLabels", 30, 2, 1_000_000),
        s.intIn("refitEvery", 25, 1, 1_000_000),
        s.longIn("targetTimeoutMs", 5000, 100, 120_000),
        s.intIn("maxQueueLimit", 500, 1, 10_000),
        s.bool("caseLabels", true),
        s.bool("applyCalibration", true));
  }
}
