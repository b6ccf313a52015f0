package dev.argus.config;

/**
 * Section {@code citations}: where the versioned rule set lives ({@code rulesFile}), the time one citation may take
 * ({@code timeoutMs}) and one graph request ({@code graphTimeoutMs}), how many citations and evidence items a
 * request may carry, and how many graph answers are cached per graph version ({@code cacheMaxEntries}, 0 = none).
 */
public record CitationsConf(String rulesFile, long timeoutMs, long graphTimeoutMs, int maxCitations, int maxEvidence,
                            int cacheMaxEntries) {

  public static CitationsConf from(Settings s) {
    long timeout = s.longIn("timeoutMs", 2_000, 10, 60_000);
    long graphTimeout = s.longIn("graphTimeoutMs", 1_000, 10, 60_000);
    if (graphTimeout > timeout) {
      throw s.error("graphTimeoutMs", "must not exceed timeoutMs (" + timeout + "), got " + graphTimeout);
    }
    return new CitationsConf(
        s.nonBlank("rulesFile", "conf/citations/rules.json"),
        timeout,
        graphTimeout,
        s.intIn("maxCitations", 200, 1, 10_000),
        s.intIn("maxEvidence", 1_000, 0, 100_000),
        s.intIn("cacheMaxEntries", 100_000, 0, 10_000_000));
  }
}
