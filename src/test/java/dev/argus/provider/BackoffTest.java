package dev.argus.provider;

import org.junit.jupiter.api.Test;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one backoff of every provider call: retries counted from 1, Retry-After parsed and limited by policy. */
class BackoffTest {

  @Test
  void retryAfterIsDeltaSecondsOrAnHttpDate() {
    long now = ZonedDateTime.parse("Sun, 22 Nov 2026 04:00:00 GMT", DateTimeFormatter.RFC_1123_DATE_TIME)
        .toInstant().toEpochMilli();
    assertEquals(5_000, Backoff.parseRetryAfter("Sun, 22 Nov 2026 04:00:05 GMT", now));
    assertEquals(0, Backoff.parseRetryAfter("Sun, 22 Nov 2026 03:59:00 GMT", now), "a date in the past: at once");
    assertEquals(3000, Backoff.parseRetryAfter("Tue, 14 Nov 2023 22:13:23 GMT", 1_700_000_000_000L));
    assertEquals(2_000, Backoff.parseRetryAfter("2", now));
    assertEquals(1_500, Backoff.parseRetryAfter(" 1.5 ", now));
    assertEquals(-1, Backoff.parseRetryAfter("-3", now));
    assertEquals(-1, Backoff.parseRetryAfter("soon", now));
    assertEquals(-1, Backoff.parseRetryAfter("", now));
    assertEquals(-1, Backoff.parseRetryAfter(null, now));
  }

  /** base 100, max 1000: retry n waits within [d/2, d] for d = min(1000, 100 * 2^(n-1)): 100, 200, 400, 800, 1000. */
  @Test
  void exponentialDelaysWithJitterInTheirUpperHalfCappedAtTheMaximum() {
    Backoff backoff = new Backoff(100, 1000, 1000, Backoff.OverLimit.GIVE_UP);
    for (int i = 0; i < 50; i++) {
      for (int retry = 1; retry <= 10; retry++) {
        long full = Math.min(1000, 100L << (retry - 1));
        long d = backoff.delayMs(retry, -1);
        assertTrue(d >= full / 2 && d <= full, "retry " + retry + ": " + d);
      }
    }
  }

  @Test
  void aRetryAfterWithinTheLimitIsWaitedForAsAsked() {
    Backoff llm = new Backoff(100, 1000, 2000, Backoff.OverLimit.GIVE_UP);
    Backoff embedding = new Backoff(250, 8000, 60_000, Backoff.OverLimit.WAIT_LIMIT);
    assertEquals(1500, llm.delayMs(1, 1500), "longer than the backoff maximum, within the Retry-After limit");
    assertEquals(2000, llm.delayMs(3, 2000));
    assertEquals(0, embedding.delayMs(1, 0));
    assertEquals(30_000, embedding.delayMs(2, 30_000));
  }

  @Test
  void aRetryAfterBeyondTheLimitGivesUpOrWaitsTheLimitAsThePolicySays() {
    assertEquals(-1, new Backoff(100, 1000, 2000, Backoff.OverLimit.GIVE_UP).delayMs(1, 120_000));
    assertEquals(60_000, new Backoff(250, 8000, 60_000, Backoff.OverLimit.WAIT_LIMIT).delayMs(1, 3_600_000));
  }
}
