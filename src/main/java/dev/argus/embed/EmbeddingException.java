package dev.argus.embed;

/** An embedding call failed; the message says what failed and why (never contains credentials). */
public class EmbeddingException extends RuntimeException {

  private final boolean retryable;

  public EmbeddingException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  public EmbeddingException(String message, boolean retryable) {
    this(message, retryable, null);
  }

  /** True for transient failures (HTTP 429/5xx, network errors, timeouts) that a retry may cure. */
  public boolean retryable() {
    return retryable;
  }
}
