package dev.argus.embed.openai;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/** Retry delays: exponential backoff with jitter, or the server's {@code Retry-After} when it sends one. */
final class Backoff {

  /** Longest wait we accept from a {@code Retry-After} header. */
  static final long MAX_RETRY_AFTER_MS = 60_000;

  private final long initialMs;
  private final long maxMs;

  Backoff(long initialMs, long maxMs) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
  }

  /** Delay before retry number {@code retry} (1-based): half of {@code initial * 2^(retry-1)} plus random jitter. */
  long delayMs(int retry, String retryAfter) {
    long fromHeader = parseRetryAfterMs(retryAfter, System.currentTimeMillis());
    if (fromHeader >= 0) {
      return Math.min(fromHeader, MAX_RETRY_AFTER_MS);
    }
    long base = Math.min(maxMs, initialMs << Math.min(20, retry - 1));
    long half = Math.max(1, base / 2);
    return half + ThreadLocalRandom.current().nextLong(half + 1);
  }

  /** {@code Retry-After} as delta-seconds or an HTTP date; -1 when absent or unreadable. */
  static long parseRetryAfterMs(String value, long nowMs) {
    if (value == null || value.isBlank()) {
      return -1;
    }
    String v = value.trim();
    try {
      double seconds = Double.parseDouble(v);
      return seconds < 0 ? -1 : (long) (seconds * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        return Math.max(0, at - nowMs);
      } catch (RuntimeException notDate) {
        return -1;
      }
    }
  }

  @Override
  public String toString() {
    return "Backoff[" + Duration.ofMillis(initialMs) + ".." + Duration.ofMillis(maxMs) + "]";
  }
}
