package dev.argus.llm;

/**
 * The provider answered with an HTTP error (or an error event in a stream). {@code status} is the HTTP status
 * (for stream error events the closest one: 429 rate limit, 529 overloaded, 500 otherwise); {@code retryAfterMs}
 * is the delay asked for by a {@code Retry-After} header, or -1.
 */
public class LlmProviderException extends LlmUnavailableException {

  private final int status;
  private final long retryAfterMs;

  public LlmProviderException(String message, int status, long retryAfterMs) {
    this(message, status, retryAfterMs, null);
  }

  public LlmProviderException(String message, int status, long retryAfterMs, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }

  public int status() {
    return status;
  }

  public long retryAfterMs() {
    return retryAfterMs;
  }

  /** 429 and 5xx are worth retrying; other statuses are the request's fault. */
  public boolean retryable() {
    return status == 429 || status >= 500;
  }
}
