package dev.argus.http;

import io.vertx.core.MultiMap;

/**
 * Headers every response carries. The pages load only their own scripts, styles and data (nothing inline: no
 * {@code <script>} or {@code <style>} blocks, no {@code style} or event-handler attributes), may not be framed, and
 * send no referrer; no response may be sniffed into another content type or read by another site's page.
 */
final class SecurityHeaders {

  static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
      + "form-action 'self'; frame-ancestors 'none'";

  private SecurityHeaders() {
  }

  static void apply(MultiMap headers) {
    headers.set("Content-Security-Policy", CSP)
        .set("X-Content-Type-Options", "nosniff")
        .set("X-Frame-Options", "DENY")
        .set("Referrer-Policy", "no-referrer")
        .set("Cross-Origin-Resource-Policy", "same-origin");
  }
}
