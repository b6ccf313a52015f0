package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The first route of every request: a request whose body has not been read to its end within {@code bodyTimeoutMs}
 * of its head is answered 408 {@code request_timeout} and its connection closed. "Read" means decoded, not only
 * received: a trickling client, a body shorter than its {@code Content-Length}, and a complete HTTP body whose
 * multipart content never closes its last part (the decoder waits for it forever) all time out. {@link #bodyRead}
 * marks the end, after the body handlers; multipart uploads spooled to disk are cancelled and deleted whenever the exchange ends, however
 * it ends (answered, failed, timed out, or the client went away). Also tells the {@link ConnectionGuard} when the
 * response ended.
 */
final class BodyTimeout implements Handler<RoutingContext> {

  private static final String BODY_READ = "argus.bodyRead";

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
    long timer = ErrorResponses.announcesBody(req) || multipart(req)
        ? vertx.setTimer(bodyTimeoutMs, id -> timedOut(ctx)) : -1;
    ctx.addEndHandler(ar -> {
      vertx.cancelTimer(timer);
      ctx.cancelAndCleanupFileUploads();
      guard.responseEnded(conn);
    });
    ctx.next();
  }

  /** The route after the body handlers: the body has been read and decoded. */
  static void bodyRead(RoutingContext ctx) {
    ctx.put(BODY_READ, true);
    ctx.next();
  }

  private static boolean multipart(HttpServerRequest req) {
    String type = req.getHeader("Content-Type");
    return type != null && type.regionMatches(true, 0, "multipart/", 0, 10);
  }

  private void timedOut(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    if (Boolean.TRUE.equals(ctx.get(BODY_READ)) || ctx.response().ended()) {
      return;
    }
    ErrorResponses.send(req, new ApiException(408, "request_timeout", "the request body did not arrive within "
        + bodyTimeoutMs + " ms (http.bodyTimeoutMs)"));
    ctx.cancelAndCleanupFileUploads(); // after answering: cancelling fails the upload, which must not answer first
  }
}
