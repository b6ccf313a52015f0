package dev.argus.provider;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Retry delays for calls to a provider: exponential backoff with jitter, or what the provider's {@code Retry-After}
 * asks for. Retries are counted from 1 (the first retry waits about {@code base}); a delay is never longer than
 * {@code max}. A {@code Retry-After} up to {@code retryAfterLimit} is honoured as is; a longer one is either
 * waited for only up to the limit ({@link OverLimit#WAIT_LIMIT}) or not at all, the call failing at once
 * ({@link OverLimit#GIVE_UP}).
 */
public final class Backoff {

  /** What to do with a {@code Retry-After} longer than the limit. */
  public enum OverLimit {
    /** Wait the limit, then retry. */
    WAIT_LIMIT,
    /** Do not retry: the caller fails at once rather than retrying long before the provider is ready. */
    GIVE_UP
  }

  private final long baseMs;
  private final long maxMs;
  private final long retryAfterLimitMs;
  private final OverLimit overLimit;

  public Backoff(long baseMs, long maxMs, long retryAfterLimitMs, OverLimit overLimit) {
    if (baseMs < 1 || maxMs < 1 || retryAfterLimitMs < 0) {
      throw new IllegalArgumentException("backoff needs a base and a maximum >= 1 and a limit >= 0: " + baseMs + ", "
          + maxMs + ", " + retryAfterLimitMs);
    }
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.retryAfterLimitMs = retryAfterLimitMs;
    this.overLimit = overLimit;
  }

  /**
   * The delay before retry number {@code retry} (1 for the first retry), or -1 when the call must not be retried.
   * With a {@code Retry-After} ({@code retryAfterMs >= 0}) that value, within the limit; otherwise
   * {@code base * 2^(retry - 1)}, at most {@code max}, with jitter in its upper half.
   */
  public long delayMs(int retry, long retryAfterMs) {
    if (retryAfterMs >= 0) {
      if (retryAfterMs <= retryAfterLimitMs) {
        return retryAfterMs;
      }
      return overLimit == OverLimit.WAIT_LIMIT ? retryAfterLimitMs : -1;
    }
    long exp = Math.min(maxMs, baseMs << Math.min(Math.max(0, retry - 1), 30));
    long half = exp / 2;
    return half + ThreadLocalRandom.current().nextLong(exp - half + 1);
  }

  /** Parses a {@code Retry-After} value: delta seconds or an HTTP date; -1 when absent or unreadable. */
  public static long parseRetryAfter(String value, long nowMillis) {
    if (value == null || value.isBlank()) {
      return -1;
    }
    String v = value.trim();
    try {
      double seconds = Double.parseDouble(v);
      return seconds < 0 || Double.isNaN(seconds) ? -1 : (long) Math.ceil(Math.min(seconds, 1e9) * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        return Math.max(0, at - nowMillis);
      } catch (DateTimeParseException notDate) {
        return -1;
      }
    }
  }

  @Override
  public String toString() {
    return "Backoff[" + baseMs + ".." + maxMs + " ms, Retry-After up to " + retryAfterLimitMs + " ms, then "
        + overLimit + "]";
  }
}
