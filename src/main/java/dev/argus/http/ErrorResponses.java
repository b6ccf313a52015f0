package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * Writes an error response in the API's one JSON shape: {@code {"error": message, "code": code}} everywhere, and
 * for the OpenAI-compatible API under {@code /v1/} the shape its clients read ({@code {"error": {"message", "type",
 * "code"}}}, as its routes answer too). When the request's body has not been read to its end (a 413, a timed-out or
 * malformed upload), the connection is closed after the response instead of reading the rest of the body.
 */
final class ErrorResponses {

  private ErrorResponses() {
  }

  static void send(HttpServerRequest req, ApiException error) {
    HttpServerResponse resp = req.response();
    boolean close = unreadBody(req) || error.status() == 408 || error.status() == 413;
    if (resp.ended() || resp.headWritten() || resp.closed()) {
      if (close || !resp.ended()) {
        req.connection().close();
      }
      return;
    }
    resp.setStatusCode(error.status()).putHeader("Content-Type", "application/json; charset=utf-8");
    if (close) {
      resp.putHeader("Connection", "close");
    }
    resp.end(body(req.path(), error).encode()).onComplete(ar -> {
      if (close) {
        req.connection().close();
      }
    });
  }

  static JsonObject body(String path, ApiException error) {
    if (path != null && path.startsWith("/v1/")) {
      return new JsonObject().put("error", new JsonObject().put("message", error.getMessage())
          .put("type", error.status() < 500 ? "invalid_request_error" : "server_error").put("code", error.code()));
    }
    return error.toJson();
  }

  /** True when the request announced a body that has not been received to its end. */
  static boolean unreadBody(HttpServerRequest req) {
    return !req.isEnded() && announcesBody(req);
  }

  /** True when the request announces a body (chunked, or a length other than 0). */
  static boolean announcesBody(HttpServerRequest req) {
    String length = req.getHeader("Content-Length");
    return req.getHeader("Transfer-Encoding") != null || (length != null && !length.strip().equals("0"));
  }
}
