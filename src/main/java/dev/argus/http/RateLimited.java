package dev.argus.http;

import dev.argus.common.ApiException;

/** 429 {@code rate_limited}: the caller spent its allowance; {@code retryAfterSeconds} goes out as {@code Retry-After}. */
public final class RateLimited extends ApiException {

  private final long retryAfterSeconds;

  public RateLimited(long retryAfterSeconds, String message) {
    super(429, "rate_limited", message);
    this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
  }

  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
