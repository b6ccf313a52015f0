package dev.argus.config;

import java.util.List;

/**
 * Section {@code decide}: the decision engine. {@code scoringDir} / {@code policiesDir}: the versioned scoring models
 * and policy files; {@code shadowVersions}: candidate versions run beside the live ones (recorded, never returned);
 * {@code toolTimeoutMs} / {@code toolRetries}: per tool call (a decision waits for its slowest tool, so no retry by
 * default; breakers as in {@code agent}); timeouts of the other calls it makes over the bus; {@code claimTtlMs}: how long
 * a review claim holds; {@code useLlm}: ask the configured LLM in Think and Observe (rules otherwise);
 * {@code maxInlineRecordChars}: size limit of a record sent inline.
 */
public record DecideConf(String scoringDir, String policiesDir, List<String> shadowVersions, long toolTimeoutMs,
                         int toolRetries,
                         long assessorTimeoutMs, long citationTimeoutMs, long calibrationTimeoutMs,
                         long recordsTimeoutMs, long claimTtlMs, boolean useLlm, int maxInlineRecordChars,
                         long decisionTimeoutMs) {

  public static DecideConf from(Settings s) {
    List<String> shadow = s.strings("shadowVersions", List.of());
    for (String v : shadow) {
      if (!v.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
        throw s.error("shadowVersions", "a version must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, got '" + v + "'");
      }
    }
    return new DecideConf(
        s.nonBlank("scoringDir", "conf/scoring"),
        s.nonBlank("policiesDir", "conf/policies"),
        List.copyOf(shadow),
        s.longIn("toolTimeoutMs", 2_000, 50, 600_000),
        s.intIn("toolRetries", 0, 0, 5),
        s.longIn("assessorTimeoutMs", 2_000, 50, 60_000),
        s.longIn("citationTimeoutMs", 300, 10, 60_000),
        s.longIn("calibrationTimeoutMs", 200, 10, 60_000),
        s.longIn("recordsTimeoutMs", 30_000, 100, 600_000),
        s.longIn("claimTtlMs", 900_000, 1_000, 86_400_000),
        s.bool("useLlm", true),
        s.intIn("maxInlineRecordChars", 65_536, 256, 10_000_000),
        s.longIn("decisionTimeoutMs", 60_000, 1_000, 600_000));
  }
}
