package dev.argus.config;

/**
 * Section {@code backtest}: measuring the decision engine against labelled worlds. {@code concurrency} decisions are in
 * flight at once, each waiting at most {@code decisionTimeoutMs}; a world may hold at most {@code maxSubjects}
 * labelled subjects and, sent over HTTP, {@code http.maxBodyBytes}. Costs (in one currency unit) drive the proposed
 * thresholds: {@code missedFraudCost} per fraudulent subject approved, {@code wrongBlockCost} per honest subject
 * rejected, {@code reviewCost} per subject sent to a person; {@code maxReviewRate} caps the share of reviews a proposal
 * may produce. {@code maxJobs} backtests are kept in memory. An adopted proposal is written as a new version file into
 * the decision engine's {@code decide.scoringDir}.
 */
public record BacktestConf(int concurrency, long decisionTimeoutMs, int maxSubjects, int maxJobs,
                           double missedFraudCost, double wrongBlockCost, double reviewCost, double maxReviewRate) {

  public static BacktestConf from(Settings s) {
    return new BacktestConf(
        s.intIn("concurrency", 4, 1, 256),
        s.longIn("decisionTimeoutMs", 30_000, 100, 600_000),
        s.intIn("maxSubjects", 200_000, 1, 10_000_000),
        s.intIn("maxJobs", 16, 1, 1000),
        s.doubleIn("missedFraudCost", 1000, 0, 1e12),
        s.doubleIn("wrongBlockCost", 200, 0, 1e12),
        s.doubleIn("reviewCost", 15, 0, 1e12),
        s.doubleIn("maxReviewRate", 0.2, 0, 1));
  }
}
