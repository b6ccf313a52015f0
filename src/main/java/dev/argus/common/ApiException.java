package dev.argus.common;

import io.vertx.core.json.JsonObject;

/**
 * A failure with an HTTP status and a stable machine-readable code, shown to clients as
 * {@code {"error": message, "code": code}}. Use the factory methods for the common cases.
 */
public class ApiException extends RuntimeException {

  private final int status;
  private final String code;

  public ApiException(int status, String code, String message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  public ApiException(int status, String code, String message, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.code = code;
  }

  public static ApiException badRequest(String code, String message) {
    return new ApiException(400, code, message);
  }

  public static ApiException notFound(String code, String message) {
    return new ApiException(404, code, message);
  }

  public static ApiException tooLarge(String message) {
    return new ApiException(413, "payload_too_large", message);
  }

  public static ApiException unsupportedMedia(String message) {
    return new ApiException(415, "unsupported_media_type", message);
  }

  public static ApiException unavailable(String code, String message) {
    return new ApiException(503, code, message);
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  public JsonObject toJson() {
    return new JsonObject().put("error", getMessage()).put("code", code);
  }
}
