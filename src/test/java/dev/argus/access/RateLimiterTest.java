package dev.argus.access;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Token buckets on a hand-driven clock. */
class RateLimiterTest {

  private long now = 0;
  private final RateLimiter limiter = new RateLimiter(() -> now);

  @Test
  void aBucketHoldsOneMinuteOfRequestsAndRefillsSteadily() {
    // 3 per minute: 3 tokens at start, one more every 60/3 = 20 s.
    assertEquals(0, limiter.acquire("k", 3));
    assertEquals(0, limiter.acquire("k", 3));
    assertEquals(0, limiter.acquire("k", 3));
    assertEquals(20, limiter.acquire("k", 3)); // empty: a whole token is 20 s away
    now += 5_000_000_000L;                     // +5 s: 0.25 token, 15 s to go
    assertEquals(15, limiter.acquire("k", 3));
    now += 15_000_000_000L;                    // +15 s: exactly one token
    assertEquals(0, limiter.acquire("k", 3));
    assertEquals(20, limiter.acquire("k", 3));
    // another key has its own bucket; 0 is unlimited
    assertEquals(0, limiter.acquire("other", 3));
    for (int i = 0; i < 1000; i++) {
      assertEquals(0, limiter.acquire("free", 0));
    }
    // a long pause refills only up to the minute's allowance
    now += 3_600_000_000_000L;
    for (int i = 0; i < 3; i++) {
      assertEquals(0, limiter.acquire("k", 3));
    }
    assertEquals(20, limiter.acquire("k", 3));
  }
}
