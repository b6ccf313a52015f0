package dev.argus.config;

/**
 * Section {@code eval}: the evaluation of every run and decision. {@code enabled} turns the online evaluation on;
 * at most {@code maxConcurrent} evaluations run at once and {@code maxQueued} wait (more are dropped and counted).
 * {@code judge}: {@code auto} asks the configured LLM to judge the text scores too (none configured: lexical only),
 * {@code off} never. Every {@code aggregateIntervalMs} the hourly aggregates of the last {@code recomputeHours} hours
 * are recomputed and the last complete hour is held against the trailing {@code baselineHours}: a regression when it is
 * more than {@code regressionThreshold} (a fraction) below their mean, given at least {@code minBaselineHours} hours.
 * {@code trendHours} is the trend's span; golden-set runs wait {@code goldenRunTimeoutMs} per question.
 */
public record EvalConf(boolean enabled, int maxConcurrent, int maxQueued, String judge, long judgeTimeoutMs,
                       int judgeMaxChars, long runFetchTimeoutMs, long aggregateIntervalMs, int recomputeHours,
                       double regressionThreshold, int baselineHours, int minBaselineHours, int trendHours,
                       long goldenRunTimeoutMs, int maxSetCases) {

  public static EvalConf from(Settings s) {
    return new EvalConf(
        s.bool("enabled", true),
        s.intIn("maxConcurrent", 4, 1, 256),
        s.intIn("maxQueued", 1000, 0, 1_000_000),
        s.oneOf("judge", "auto", "auto", "off"),
        s.longIn("judgeTimeoutMs", 30_000, 100, 600_000),
        s.intIn("judgeMaxChars", 12_000, 1000, 200_000),
        s.longIn("runFetchTimeoutMs", 5_000, 100, 120_000),
        s.longIn("aggregateIntervalMs", 300_000, 1000, 86_400_000),
        s.intIn("recomputeHours", 3, 1, 24 * 31),
        s.doubleIn("regressionThreshold", 0.15, 0.0, 1.0),
        s.intIn("baselineHours", 168, 1, 24 * 365),
        s.intIn("minBaselineHours", 6, 1, 24 * 365),
        s.intIn("trendHours", 168, 1, 24 * 365),
        s.longIn("goldenRunTimeoutMs", 120_000, 1000, 3_600_000),
        s.intIn("maxSetCases", 500, 1, 10_000));
  }
}
