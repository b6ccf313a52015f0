package dev.argus.provider;

/**
 * A call to a provider failed. The message is a short summary safe to show a client (the provider's name, an HTTP
 * status and a generic reason, a timeout, ...); what the provider itself said ({@link #detail()}: an error body, a
 * stream error event) may name its internals, so it is only logged, secrets removed, never put in the message.
 */
public class ProviderException extends RuntimeException {

  /** Why the call failed. */
  public enum Reason {
    /** The provider answered with an HTTP error status (or a stream error event standing for one). */
    HTTP,
    /** The provider's answer could not be read (not JSON, an unreadable stream event, a missing part). */
    INVALID,
    /** No answer within the timeout (for streams: silence longer than it). */
    TIMEOUT,
    /** The connection failed, or a stream ended early. */
    NETWORK,
    /** The circuit breaker is open: the provider is not called. */
    BREAKER_OPEN,
    /** Too many calls are already running and waiting: refused without calling the provider. */
    QUEUE_FULL
  }

  private final Reason reason;
  private final int status;
  private final long retryAfterMs;
  private final String detail;

  public ProviderException(Reason reason, String message, int status, long retryAfterMs, String detail, Throwable cause) {
    super(message, cause);
    this.reason = reason;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.detail = detail;
  }

  /** An HTTP error status from {@code name}; {@code body} is the provider's own text (logged, never shown). */
  public static ProviderException http(String name, int status, long retryAfterMs, String body) {
    return new ProviderException(Reason.HTTP, name + " returned HTTP " + status + " (" + statusReason(status) + ")",
        status, retryAfterMs, body, null);
  }

  /**
   * A stream error event from {@code name}, standing for HTTP {@code status}; {@code type} is the provider's
   * error type (a short token such as {@code rate_limit_error}), {@code message} its text (logged, never shown).
   */
  public static ProviderException streamError(String name, int status, String type, String message) {
    String kind = type == null || !type.matches("[A-Za-z0-9_.-]{1,40}") ? statusReason(status) : type;
    return new ProviderException(Reason.HTTP, name + " sent a stream error (" + kind + ")", status, -1, message, null);
  }

  /** An answer that cannot be used ({@code what}, e.g. "answered without choices"); counts as a bad gateway. */
  public static ProviderException invalid(String name, String what, String detail) {
    return new ProviderException(Reason.INVALID, name + " " + what, 502, -1, detail, null);
  }

  public Reason reason() {
    return reason;
  }

  /** The HTTP status (502 for an unusable answer), or 0 when the provider gave none. */
  public int status() {
    return status;
  }

  /** The delay a {@code Retry-After} header asked for, or -1. */
  public long retryAfterMs() {
    return retryAfterMs;
  }

  /** What the provider said, for the log only (may be null). */
  public String detail() {
    return detail;
  }

  /** 429 and 5xx statuses, unusable answers and network failures may pass on retry; timeouts are the policy's call. */
  public boolean transientFailure() {
    return switch (reason) {
      case HTTP, INVALID -> status == 429 || status >= 500;
      case NETWORK -> true;
      case TIMEOUT, BREAKER_OPEN, QUEUE_FULL -> false;
    };
  }

  /** A generic reason phrase for an HTTP status: says what kind of failure, not what the provider wrote. */
  static String statusReason(int status) {
    return switch (status) {
      case 400 -> "bad request";
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not found";
      case 408 -> "request timeout";
      case 409 -> "conflict";
      case 413 -> "request too large";
      case 422 -> "unprocessable request";
      case 429 -> "rate limited";
      case 500 -> "internal server error";
      case 502 -> "bad gateway";
      case 503 -> "service unavailable";
      case 504 -> "gateway timeout";
      case 529 -> "overloaded";
      default -> status >= 500 ? "server error" : status >= 400 ? "client error" : "unexpected status";
    };
  }
}
