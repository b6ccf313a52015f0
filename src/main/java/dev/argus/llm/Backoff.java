package dev.argus.llm;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ThreadLocalRandom;

/** Retry delays: exponential backoff with jitter, or what the provider's {@code Retry-After} asks for. */
final class Backoff {

  private final long baseMs;
  private final long maxMs;

  Backoff(long baseMs, long maxMs) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
  }

  /**
   * The delay before retry number {@code retry} (0 for the first retry). A {@code Retry-After} delay (>= 0) is
   * used as is, capped at the maximum; otherwise {@code base * 2^retry} capped, with jitter in its upper half.
   */
  long delayMs(int retry, long retryAfterMs) {
    if (retryAfterMs >= 0) {
      return Math.min(retryAfterMs, maxMs);
    }
    long exp = Math.min(maxMs, baseMs << Math.min(retry, 30));
    long half = exp / 2;
    return half + ThreadLocalRandom.current().nextLong(exp - half + 1);
  }

  /** Parses a {@code Retry-After} value: delta seconds or an HTTP date; -1 when absent or unreadable. */
  static long parseRetryAfter(String value, long nowMillis) {
    if (value == null || value.isBlank()) {
      return -1;
    }
    String v = value.trim();
    try {
      double seconds = Double.parseDouble(v);
      return seconds < 0 ? -1 : (long) Math.ceil(seconds * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        return Math.max(0, at - nowMillis);
      } catch (DateTimeParseException notDate) {
        return -1;
      }
    }
  }

  static long parseRetryAfter(String value) {
    return parseRetryAfter(value, System.currentTimeMillis());
  }

  static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }
}
