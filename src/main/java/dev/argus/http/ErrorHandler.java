package dev.argus.http;

import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;

/**
 * The one failure handler (also the router's handler for unmatched requests): every failure becomes the API's JSON
 * error with a 4xx/5xx status ({@link ErrorResponses}). Input that the HTTP codecs could not decode (a malformed
 * multipart body, a part without a name, part headers that are too long) is a 400 {@code malformed_request}.
 * Unexpected failures are logged with a correlation id that the response carries instead of a stack trace.
 */
final class ErrorHandler implements Handler<RoutingContext> {

  private final AllowedMethods allowed;

  ErrorHandler(AllowedMethods allowed) {
    this.allowed = allowed;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (ctx.response().ended() || ctx.response().closed()) {
      // answered already (a timeout, a refusal) or the client went away: what failed now is the rest of the exchange
      ctx.cancelAndCleanupFileUploads();
      if (!ctx.response().ended()) {
        ctx.request().connection().close();
      }
      return;
    }
    ApiException error = toApi(ctx);
    ctx.cancelAndCleanupFileUploads();
    if (error.status() == 405) {
      ctx.response().putHeader("Allow", allowed.allow(ctx.request().path()));
    }
    ErrorResponses.send(ctx.request(), error);
  }

  private static ApiException toApi(RoutingContext ctx) {
    Throwable failure = ctx.failure();
    if (failure != null && !(failure instanceof HttpException)) {
      if (MalformedInput.is(failure)) {
        return ApiException.badRequest("malformed_request", "the request body could not be decoded: "
            + MalformedInput.describe(failure));
      }
      return BusFailures.toApi(failure);
    }
    int status = failure instanceof HttpException he ? he.getStatusCode() : ctx.statusCode();
    return switch (status) {
      case 400 -> ApiException.badRequest("bad_request", "bad request");
      case 404 -> ApiException.notFound("not_found", "no such resource: " + clip(ctx.request().path()));
      case 405 -> new ApiException(405, "method_not_allowed", "method " + ctx.request().method().name()
          + " is not allowed here");
      case 408 -> new ApiException(408, "request_timeout", "the request was not received in time");
      case 413 -> ApiException.tooLarge("request body is larger than the configured limit");
      case 415 -> ApiException.unsupportedMedia("unsupported media type");
      default -> status >= 400 && status < 500 ? new ApiException(status, "error", "request failed")
          : BusFailures.toApi(failure == null ? new IllegalStateException("status " + status) : failure);
    };
  }

  private static String clip(String path) {
    return path == null ? "" : path.length() > 200 ? path.substring(0, 200) + "..." : path;
  }
}
