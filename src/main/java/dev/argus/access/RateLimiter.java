package dev.argus.access;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Per-key token buckets: a key allowed {@code n} requests per minute holds at most {@code n} tokens and gains
 * {@code n/60} per second; a request takes one. When the bucket is empty the request is refused with the number of
 * whole seconds until the next token ({@code Retry-After}). Shared by HTTP and the bridge (one allowance per key).
 */
public final class RateLimiter {

  private static final class Bucket {
    double tokens;
    long updatedNanos;
    int perMinute;
  }

  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
  private final LongSupplier nanoClock;

  public RateLimiter() {
    this(System::nanoTime);
  }

  RateLimiter(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /**
   * Takes a token from {@code key}'s bucket ({@code perMinute} ≤ 0: unlimited); 0 when allowed, otherwise the seconds
   * to wait.
   */
  public long acquire(String key, int perMinute) {
    if (perMinute <= 0) {
      return 0;
    }
    long now = nanoClock.getAsLong();
    Bucket b = buckets.computeIfAbsent(key, k -> {
      Bucket fresh = new Bucket();
      fresh.tokens = perMinute;
      fresh.updatedNanos = now;
      fresh.perMinute = perMinute;
      return fresh;
    });
    synchronized (b) {
      if (b.perMinute != perMinute) {
        b.tokens = Math.min(b.tokens, perMinute);
        b.perMinute = perMinute;
      }
      double perNano = perMinute / 60e9;
      b.tokens = Math.min(perMinute, b.tokens + (now - b.updatedNanos) * perNano);
      b.updatedNanos = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      double missing = 1 - b.tokens;
      return (long) Math.ceil(missing / perNano / 1e9);
    }
  }

  /** Forgets a key's bucket (revoked keys). */
  public void forget(String key) {
    buckets.remove(key);
  }
}
