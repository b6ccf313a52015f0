package dev.argus.llm;

/** The provider cannot answer now (down, breaker open, timed out, rate limited past retries, not configured). */
public class LlmUnavailableException extends RuntimeException {
  public LlmUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public LlmUnavailableException(String message) {
    super(message);
  }
}
