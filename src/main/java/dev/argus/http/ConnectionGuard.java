package dev.argus.http;

import io.netty.channel.ChannelPipeline;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.impl.ConnectionBase;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Per-connection rules of the HTTP server: each new connection gets the {@link StrictRequestDecoder}, and a
 * connection must deliver a whole request head within {@code headerTimeoutMs} of opening or of its previous
 * response's end, or it is closed (a client that trickles its headers, or holds an idle keep-alive connection, holds
 * nothing for long). Used only on the HTTP verticle's event loop.
 */
final class ConnectionGuard {

  private static final Logger LOG = Logger.getLogger(ConnectionGuard.class.getName());

  private final Vertx vertx;
  private final HttpServerOptions options;
  private final long headerTimeoutMs;
  private final Map<HttpConnection, State> states = new HashMap<>();

  private static final class State {
    long timer = -1;
    int inFlight;
  }

  ConnectionGuard(Vertx vertx, HttpServerOptions options, long headerTimeoutMs) {
    this.vertx = vertx;
    this.options = options;
    this.headerTimeoutMs = headerTimeoutMs;
  }

  /** A new connection: stricter decoding, and its first request head is awaited. */
  void opened(HttpConnection conn) {
    installStrictDecoder(conn);
    State state = new State();
    states.put(conn, state);
    conn.closeHandler(v -> {
      State s = states.remove(conn);
      if (s != null) {
        vertx.cancelTimer(s.timer);
      }
    });
    arm(conn, state);
  }

  /** A request head arrived on the connection. */
  void requestStarted(HttpConnection conn) {
    State state = states.get(conn);
    if (state != null) {
      state.inFlight++;
      vertx.cancelTimer(state.timer);
      state.timer = -1;
    }
  }

  /** A response ended (or failed): once nothing is in flight, the next request head is awaited. */
  void responseEnded(HttpConnection conn) {
    State state = states.get(conn);
    if (state != null && state.inFlight > 0 && --state.inFlight == 0) {
      arm(conn, state);
    }
  }

  int open() {
    return states.size();
  }

  private void arm(HttpConnection conn, State state) {
    vertx.cancelTimer(state.timer);
    state.timer = vertx.setTimer(headerTimeoutMs, id -> {
      if (state.timer == id && state.inFlight == 0) {
        conn.close();
      }
    });
  }

  private void installStrictDecoder(HttpConnection conn) {
    if (!(conn instanceof ConnectionBase base)) {
      return; // not HTTP/1.x over a Netty channel: nothing to replace
    }
    ChannelPipeline pipeline = base.channelHandlerContext().pipeline();
    if (pipeline.get("httpDecoder") != null && !(pipeline.get("httpDecoder") instanceof StrictRequestDecoder)) {
      try {
        pipeline.replace("httpDecoder", "httpDecoder", new StrictRequestDecoder(options));
      } catch (RuntimeException e) {
        LOG.warning("cannot install the strict request decoder: " + e);
      }
    }
  }
}
