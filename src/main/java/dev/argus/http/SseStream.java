package dev.argus.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * One Server-Sent Events response: writes {@code id:}/{@code event:}/{@code data:} frames, sends heartbeat
 * comments while idle, and tells the producer when the client's write queue is full so that it can pause
 * (backpressure instead of unbounded buffering). Closing the stream or the client going away cancels the
 * heartbeat and runs the close handler exactly once.
 */
public final class SseStream {

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final long heartbeatTimer;
  private Runnable onClose = () -> { };
  private boolean closed;

  private SseStream(Vertx vertx, HttpServerResponse response, long heartbeatMs) {
    this.vertx = vertx;
    this.response = response;
    this.heartbeatTimer = vertx.setPeriodic(heartbeatMs, id -> {
      if (!closed) {
        response.write(": heartbeat\n\n");
      }
    });
    response.closeHandler(v -> closed());
    response.exceptionHandler(err -> closed());
  }

  /** Starts an SSE response (status 200, {@code text/event-stream}) with a heartbeat every {@code heartbeatMs}. */
  public static SseStream start(Vertx vertx, HttpServerResponse response, long heartbeatMs) {
    response.setStatusCode(200)
        .putHeader("Content-Type", "text/event-stream; charset=utf-8")
        .putHeader("Cache-Control", "no-cache")
        .putHeader("X-Accel-Buffering", "no")
        .setChunked(true);
    response.write(": connected\n\n");
    return new SseStream(vertx, response, heartbeatMs);
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
    if (closed) {
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

  /** Runs once when the stream ends, whether the server ended it or the client went away. */
  public SseStream onClose(Runnable action) {
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
      response.end();
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
