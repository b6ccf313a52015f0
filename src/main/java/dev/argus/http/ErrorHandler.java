package dev.argus.http;

import dev.argus.common.ApiException;
import dev.argus.bus.BusFailures;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;

/**
 * The one failure handler: every failure becomes {@code {"error", "code"}} with a 4xx/5xx status. Unexpected
 * failures are logged with a correlation id that the response carries instead of a stack trace.
 */
final class ErrorHandler implements Handler<RoutingContext> {

  @Override
  public void handle(RoutingContext ctx) {
    ApiException api = toApi(ctx);
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    ctx.response().setStatusCode(api.status()).putHeader("Content-Type", "application/json")
        .end(api.toJson().encode());
  }

  private static ApiException toApi(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure != null && !(failure instanceof HttpException)) {
      return BusFailures.toApi(failure);
    }
    int status = failure instanceof HttpException he ? he.getStatusCode() : ctx.statusCode();
    return switch (status) {
      case 400 -> ApiException.badRequest("bad_request", "bad request");
      case 404 -> ApiException.notFound("not_found", "no such resource: " + ctx.request().path());
      case 405 -> new ApiException(405, "method_not_allowed", "method not allowed");
      case 413 -> ApiException.tooLarge("request body is larger than the configured limit");
      case 415 -> ApiException.unsupportedMedia("unsupported media type");
      default -> status >= 400 && status < 500 ? new ApiException(status, "error", "request failed")
          : BusFailures.toApi(failure == null ? new IllegalStateException("status " + status) : failure);
    };
  }
}
