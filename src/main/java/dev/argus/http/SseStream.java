package dev.argus.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * One Server-Sent Events response: writes {@code id:}/{@code event:}/{@code data:} frames, sends heartbeat
 * comments while idle, and tells the producer when the client's write queue is full so that it can pause
 * (backpressure instead of unbounded buffering). Closing the stream or the client going away cancels the
 * heartbeat and runs the close handler exactly once.
 */
public final class SseStream {

  /** The reconnection delay announced to clients. */
  public static final long RETRY_MS = 5_000;

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final long heartbeatTimer;
  private Runnable onClose = () -> { };
  private boolean closed;

  private SseStream(Vertx vertx, HttpServerResponse response, long heartbeatMs) {
    this.vertx = vertx;
    this.response = response;
    this.heartbeatTimer = vertx.setPeriodic(heartbeatMs, id -> {
      if (!closed && !response.ended()) {
        response.write(": heartbeat\n\n");
      }
    });
    response.closeHandler(v -> closed());
    response.exceptionHandler(err -> closed());
  }

  /** A stream that is over before it began (the answer to {@code HEAD}). */
  private SseStream(Vertx vertx, HttpServerResponse response) {
    this.vertx = vertx;
    this.response = response;
    this.heartbeatTimer = -1;
    this.closed = true;
  }

  /** Starts an SSE response (status 200, {@code text/event-stream}) with a heartbeat every {@code heartbeatMs}. */
  public static SseStream start(Vertx vertx, HttpServerResponse response, long heartbeatMs) {
    headers(response).setChunked(true);
    response.write(": connected\nretry: " + RETRY_MS + "\n\n");
    return new SseStream(vertx, response, heartbeatMs);
  }

  /**
   * Starts the SSE response to {@code request}; for {@code HEAD}, answers the headers only and returns a stream
   * that is already closed (its close handler runs when set).
   */
  public static SseStream start(Vertx vertx, HttpServerRequest request, long heartbeatMs) {
    if (request.method() == HttpMethod.HEAD) {
      headers(request.response()).end();
      return new SseStream(vertx, request.response());
    }
    return start(vertx, request.response(), heartbeatMs);
  }

  private static HttpServerResponse headers(HttpServerResponse response) {
    return response.setStatusCode(200)
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no");
  }

  /** True when the client reconnects to a stream it already read part of (it sends {@code Last-Event-ID}). */
  public static boolean isReconnect(HttpServerRequest request) {
    String last = request.getHeader("Last-Event-ID");
    return last != null && !last.isBlank();
  }

  /**
   * Answers 204 to a reconnecting client when the stream has ended and holds nothing newer than what it read, so
   * that EventSource stops reconnecting; returns whether it did.
   */
  public static boolean endReconnect(HttpServerRequest request, boolean finished, boolean nothingNewer) {
    if (!finished || !nothingNewer || !isReconnect(request)) {
      return false;
    }
    request.response().setStatusCode(204).end();
    return true;
  }

  /** Formats one frame; multi-line data is split into several {@code data:} lines as the spec requires. */
  public static String frame(String id, String event, String data) {
    StringBuilder sb = new StringBuilder();
    if (id != null) {
      sb.append("id: ").append(id).append('\n');
    }
    if (event != null) {
      sb.append("event: ").append(event).append('\n');
    }
    for (String line : data.split("\n", -1)) {
      sb.append("data: ").append(line).append('\n');
    }
    return sb.append('\n').toString();
  }

  /** Sends one event; returns the write's future. Does nothing once closed. */
  public Future<Void> send(String id, String event, JsonObject data) {
    if (closed || response.ended()) {
      return Future.succeededFuture();
    }
    return response.write(frame(id, event, data.encode()));
  }

  /** True when the client is not keeping up: pause the producer and resume on {@link #onDrain}. */
  public boolean writeQueueFull() {
    return !closed && response.writeQueueFull();
  }

  public void onDrain(Runnable action) {
    response.drainHandler(v -> action.run());
  }

  /** Runs once when the stream ends, whether the server ended it or the client went away (at once if it has). */
  public SseStream onClose(Runnable action) {
    if (closed) {
      action.run();
      return this;
    }
    this.onClose = action;
    return this;
  }

  public boolean isClosed() {
    return closed;
  }

  /** Ends the response. */
  public void end() {
    if (!closed) {
      closed();
      if (!response.ended()) {
        response.end();
      }
    }
  }

  private void closed() {
    if (!closed) {
      closed = true;
      vertx.cancelTimer(heartbeatTimer);
      onClose.run();
    }
  }
}
