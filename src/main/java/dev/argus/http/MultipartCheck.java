package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a multipart request's {@code boundary} before the body is decoded: present, 1-70 characters (RFC 2046).
 * A missing or empty boundary is a 400 {@code malformed_request} instead of a failure inside the decoder.
 */
final class MultipartCheck implements Handler<RoutingContext> {

  private static final Pattern BOUNDARY = Pattern.compile("(?i);\\s*boundary=(\"([^\"]*)\"|([^;\\s]*))");

  @Override
  public void handle(RoutingContext ctx) {
    String type = ctx.request().getHeader("Content-Type");
    if (type != null && type.strip().toLowerCase(Locale.ROOT).startsWith("multipart/")) {
      Matcher m = BOUNDARY.matcher(type);
      String boundary = !m.find() ? null : m.group(2) != null ? m.group(2) : m.group(3);
      if (boundary == null || boundary.isEmpty() || boundary.length() > 70) {
        ctx.fail(ApiException.badRequest("malformed_request",
            "a multipart request needs a boundary of 1 to 70 characters in its Content-Type"));
        return;
      }
    }
    ctx.next();
  }
}
