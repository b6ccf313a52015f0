package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first route of every request: a request whose body has not fully arrived within {@code bodyTimeoutMs} of its
 * head (a trickling client, an unterminated multipart body) is answered 408 {@code request_timeout} and its
 * connection closed; multipart uploads spooled to disk are cancelled and deleted whenever the exchange ends, however
 * it ends (answered, failed, timed out, or the client went away). Also tells the {@link ConnectionGuard} when the
 * response ended.
 */
final class BodyTimeout implements Handler<RoutingContext> {

  private final Vertx vertx;
  private final long bodyTimeoutMs;
  private final ConnectionGuard guard;

  BodyTimeout(Vertx vertx, long bodyTimeoutMs, ConnectionGuard guard) {
    this.vertx = vertx;
    this.bodyTimeoutMs = bodyTimeoutMs;
    this.guard = guard;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    HttpConnection conn = req.connection();
    long timer = ErrorResponses.unreadBody(req) ? vertx.setTimer(bodyTimeoutMs, id -> timedOut(ctx)) : -1;
    ctx.addEndHandler(ar -> {
      vertx.cancelTimer(timer);
      ctx.cancelAndCleanupFileUploads();
      guard.responseEnded(conn);
    });
    ctx.next();
  }

  private void timedOut(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (req.isEnded()) {
      return;
    }
    ErrorResponses.send(req, new ApiException(408, "request_timeout", "the request body did not arrive within "
        + bodyTimeoutMs + " ms (http.bodyTimeoutMs)"));
    ctx.cancelAndCleanupFileUploads(); // after answering: cancelling fails the upload, which must not answer first
  }
}
