package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.Optional;

/**
 * Access control of every request, before its body is read and before any route runs: looks up the permission the
 * request needs ({@link PermissionTable}), asks the {@link Gate} who the caller is and whether it may (401
 * {@code unauthorized} with {@code WWW-Authenticate: Bearer}, 403 {@code forbidden}, 429 {@code rate_limited} with
 * {@code Retry-After}), keeps the {@link Caller} in the routing context and tells the gate when the response ended.
 */
final class GateHandler implements Handler<RoutingContext> {

  private final Gate gate;
  private final PermissionTable table;

  GateHandler(Gate gate, PermissionTable table) {
    this.gate = gate;
    this.table = table;
  }

  @Override
  public void handle(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    Permission needed = table.needed(req.method(), req.path());
    if (needed == Permission.PUBLIC) {
      ctx.next();
      return;
    }
    Future<Caller> identified = gate.identify(req);
    boolean paused = !identified.isComplete();
    if (paused) {
      req.pause(); // the body handler resumes it; other paths are resumed below
    }
    identified.onComplete(ar -> {
      if (ar.failed()) {
        refuse(ctx, ar.cause() instanceof ApiException a ? a
            : new ApiException(401, "unauthorized", "the credentials could not be checked"));
        return;
      }
      Caller caller = ar.result();
      Optional<ApiException> refusal = gate.admit(caller, needed);
      if (refusal.isPresent()) {
        refuse(ctx, refusal.get());
        return;
      }
      ctx.put(Caller.CONTEXT_KEY, caller);
      ctx.addEndHandler(v -> gate.completed(caller, needed, req, ctx.response().getStatusCode()));
      if (paused && !(req.path().startsWith("/api/") || req.path().startsWith("/v1/"))) {
        req.resume();
      }
      ctx.next();
    });
  }

  private static void refuse(RoutingContext ctx, ApiException error) {
    if (error.status() == 401) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"argus\"");
    }
    if (error instanceof RateLimited limited) {
      ctx.response().putHeader("Retry-After", Long.toString(limited.retryAfterSeconds()));
    }
    ctx.fail(error);
  }
}
