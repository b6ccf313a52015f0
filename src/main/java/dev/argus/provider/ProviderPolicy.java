package dev.argus.provider;

/**
 * How calls to one provider are made.
 *
 * @param name            how messages and logs name the provider, e.g. {@code openai LLM}
 * @param timeoutMs       whole-call timeout; for streams, the time to the headers and then the allowed silence
 * @param maxRetries      retries after the first attempt
 * @param backoff         the delay before each retry
 * @param retryTimeouts   whether a timed-out call is retried (otherwise its time budget is spent)
 * @param maxConcurrent   calls in flight at once; 0 for no limit
 * @param maxQueued       calls waiting for a slot beyond which calls are refused (with {@code maxConcurrent})
 * @param breakerFailures failures (within a 10 s window) that open the circuit breaker; 0 for no breaker
 * @param breakerResetMs  how long an open breaker fails fast before it lets a call through again
 * @param secret          the credential, removed from anything logged; may be empty
 */
public record ProviderPolicy(String name, long timeoutMs, int maxRetries, Backoff backoff, boolean retryTimeouts,
                             int maxConcurrent, int maxQueued, int breakerFailures, long breakerResetMs, String secret) {

  public ProviderPolicy {
    if (timeoutMs <= 0 || maxRetries < 0 || maxConcurrent < 0 || maxQueued < 0 || breakerFailures < 0) {
      throw new IllegalArgumentException("invalid provider policy for " + name);
    }
    secret = secret == null ? "" : secret;
  }

  /** Removes the secret from text that may echo it (error bodies, exception messages). */
  public String redact(String text) {
    if (text == null || secret.isEmpty()) {
      return text;
    }
    return text.replace(secret, "***");
  }

  @Override
  public String toString() {
    return "ProviderPolicy[" + name + ", timeout " + timeoutMs + " ms, " + maxRetries + " retries, " + backoff + "]";
  }
}
