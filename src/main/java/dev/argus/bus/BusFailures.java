package dev.argus.bus;

import dev.argus.store.ConnectionLoss;
import dev.argus.store.UnstorableText;
import dev.argus.common.ApiException;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How failures cross the event bus: the failure code is the HTTP status and the message is the JSON
 * error body {@code {"error", "code"}}. Unexpected failures are logged with a correlation id that is
 * also returned to the caller, never a stack trace.
 */
public final class BusFailures {

  private static final Logger LOG = Logger.getLogger(BusFailures.class.getName());

  private BusFailures() {
  }

  /** Replies to {@code msg} with the failure {@code err}. */
  public static void fail(Message<?> msg, Throwable err) {
    ApiException api = toApi(err);
    msg.fail(api.status(), api.toJson().encode());
  }

  /** Maps any failure to an {@link ApiException}; unexpected ones are logged with a correlation id. */
  public static ApiException toApi(Throwable err) {
    if (err instanceof ApiException api) {
      return api;
    }
    if (err instanceof ReplyException re) {
      return fromReply(re);
    }
    if (err instanceof TimeoutException) {
      return new ApiException(504, "timeout", "the operation timed out");
    }
    if (wrongJsonType(err)) {
      return ApiException.badRequest("invalid_field", "a field of the request has the wrong type");
    }
    if (UnstorableText.is(err)) {
      return ApiException.badRequest("invalid_text", "a text field holds a character that cannot be stored (NUL)");
    }
    if (ConnectionLoss.is(err)) { // transient (PostgreSQL restarting): the caller may retry, nothing to investigate
      LOG.warning("the store is not reachable: " + err);
      return ApiException.unavailable("store_unavailable", "the store is not reachable right now; try again shortly");
    }
    String correlationId = UUID.randomUUID().toString();
    LOG.log(Level.SEVERE, "unexpected failure [correlationId=" + correlationId + "]", err);
    return new CorrelatedException(correlationId);
  }

  /**
   * A request read with a typed getter of {@code JsonObject}/{@code JsonArray} (e.g. {@code getJsonObject} on a
   * string): a field of the wrong type, the caller's error (400), not ours. Only a cast that failed inside those
   * getters counts (found by scripts/fuzz-bridge.py: bridged requests whose nested fields had the wrong type), and
   * the JVM's preallocated instance without a stack trace, which it only throws for a cast that failed many times
   * already (OmitStackTraceInFastThrow), i.e. after the first ones were answered 400 by the precise check.
   */
  static boolean wrongJsonType(Throwable err) {
    if (!(err instanceof ClassCastException)) {
      return false;
    }
    if (err.getStackTrace().length == 0) {
      return true;
    }
    String top = err.getStackTrace()[0].getClassName();
    return top.equals("io.vertx.core.json.JsonObject") || top.equals("io.vertx.core.json.JsonArray");
  }

  static ApiException fromReply(ReplyException re) {
    if (re.failureType() == ReplyFailure.NO_HANDLERS) {
      return new ApiException(503, "unavailable", "the service is not available: " + re.getMessage());
    }
    if (re.failureType() == ReplyFailure.TIMEOUT) {
      return new ApiException(504, "timeout", "the operation timed out");
    }
    String message = re.getMessage();
    if (message != null && message.startsWith("{")) {
      try {
        JsonObject body = new JsonObject(message);
        ApiException api = new ApiException(re.failureCode(), body.getString("code", "error"),
            body.getString("error", "error"));
        String correlationId = body.getString("correlationId");
        return correlationId == null ? api : new CorrelatedException(correlationId);
      } catch (DecodeException ignored) {
        // fall through: not one of ours
      }
    }
    int status = re.failureCode() >= 400 && re.failureCode() < 600 ? re.failureCode() : 500;
    return new ApiException(status, "error", message == null ? "error" : message);
  }

  /** A 500 whose only detail is the correlation id that is also in the log. */
  public static final class CorrelatedException extends ApiException {
    private final String correlationId;

    CorrelatedException(String correlationId) {
      super(500, "internal_error", "internal error (correlation id " + correlationId + ")");
      this.correlationId = correlationId;
    }

    public String correlationId() {
      return correlationId;
    }

    @Override
    public JsonObject toJson() {
      return super.toJson().put("correlationId", correlationId);
    }
  }
}
