package dev.argus.config;

/**
 * Section {@code adversarial}: adversarial runs. {@code defaultSize} / {@code maxSize} bound the synthetic world a run
 * plants its fraud scenarios in (sellers; at least 60, the generator's minimum); {@code seed} is the world's seed
 * (a fixed seed makes runs comparable, so a drop against the previous run is a regression, not noise);
 * {@code concurrency} decisions or chats are in flight at once, each waiting at most {@code probeTimeoutMs};
 * {@code maxRunning} runs may go at once (more: 429); {@code regressionTolerance} is how far a detection rate may fall
 * below the baseline's before the run reports a regression.
 */
public record AdversarialConf(int defaultSize, int maxSize, long seed, int concurrency, long probeTimeoutMs,
                              int maxRunning, double regressionTolerance) {

  public static final int MIN_SIZE = 60;

  public static AdversarialConf from(Settings s) {
    AdversarialConf c = new AdversarialConf(
        s.intIn("defaultSize", 60, MIN_SIZE, 100_000),
        s.intIn("maxSize", 400, MIN_SIZE, 100_000),
        s.longIn("seed", 1337, 0, Long.MAX_VALUE),
        s.intIn("concurrency", 2, 1, 64),
        s.longIn("probeTimeoutMs", 60_000, 100, 600_000),
        s.intIn("maxRunning", 1, 1, 16),
        s.doubleIn("regressionTolerance", 0.0, 0, 1));
    if (c.defaultSize() > c.maxSize()) {
      throw s.error("defaultSize", "must not exceed adversarial.maxSize (" + c.maxSize() + ")");
    }
    return c;
  }
}
