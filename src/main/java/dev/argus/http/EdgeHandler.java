package dev.argus.http;

import dev.argus.common.ApiException;
import dev.argus.metrics.KnownMethods;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

import java.util.Optional;

/**
 * The first handler of every request, before routing: security headers on every response, then the checks that
 * must not wait for a route: an unknown method name (405 {@code method_not_allowed} with the path's {@code Allow},
 * answered here so that invented method names never reach a route or a metric), a malformed request target
 * ({@link RequestTargets}), and the {@link AccessPolicy} (Host, cross-origin). A refused request is answered here
 * in the API's JSON error shape and never routed.
 */
final class EdgeHandler implements Handler<HttpServerRequest> {

  private final AccessPolicy policy;
  private final ConnectionGuard guard;
  private final AllowedMethods allowed;
  private final Handler<HttpServerRequest> next;

  EdgeHandler(AccessPolicy policy, ConnectionGuard guard, AllowedMethods allowed, Handler<HttpServerRequest> next) {
    this.policy = policy;
    this.guard = guard;
    this.allowed = allowed;
    this.next = next;
  }

  @Override
  public void handle(HttpServerRequest req) {
    HttpConnection conn = req.connection();
    guard.requestStarted(conn);
    SecurityHeaders.apply(req.response().headers());
    Optional<ApiException> refusal = refusal(req);
    if (refusal.isPresent()) {
      req.response().endHandler(v -> guard.responseEnded(conn));
      ErrorResponses.send(req, refusal.get());
      return;
    }
    next.handle(req);
  }

  private Optional<ApiException> refusal(HttpServerRequest req) {
    if (!KnownMethods.isKnown(req.method())) {
      String name = req.method().name();
      req.response().putHeader("Allow", allowed.allow(req.path()));
      return Optional.of(new ApiException(405, "method_not_allowed", "method '"
          + (name.length() > 40 ? name.substring(0, 40) + "..." : name) + "' is not supported"));
    }
    Optional<ApiException> target = RequestTargets.check(req.uri());
    return target.isPresent() ? target : policy.check(req);
  }
}
