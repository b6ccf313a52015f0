package dev.argus.http;

import dev.argus.common.ApiException;

import java.util.Optional;

/**
 * Checks a request target before anything decodes it: an origin-form path ({@code /...}, optional query), every
 * {@code %} followed by two hex digits, and no NUL or other control character, raw or escaped. A bad target is
 * a 400 {@code invalid_uri} at the edge instead of an exception deep in routing or parameter parsing.
 */
final class RequestTargets {

  private RequestTargets() {
  }

  static Optional<ApiException> check(String uri) {
    if (uri == null || uri.isEmpty() || uri.charAt(0) != '/') {
      return bad("the request target must be a path starting with '/'");
    }
    for (int i = 0; i < uri.length(); i++) {
      char c = uri.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return bad("the request target holds a control character");
      }
      if (c == '%') {
        if (i + 2 >= uri.length() || hex(uri.charAt(i + 1)) < 0 || hex(uri.charAt(i + 2)) < 0) {
          return bad("the request target holds a malformed percent-escape at position " + i);
        }
        int value = hex(uri.charAt(i + 1)) * 16 + hex(uri.charAt(i + 2));
        if (value < 0x20 || value == 0x7f) {
          return bad("the request target holds an escaped control character (%" + uri.substring(i + 1, i + 3) + ")");
        }
        i += 2;
      }
    }
    return Optional.empty();
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  private static Optional<ApiException> bad(String message) {
    return Optional.of(ApiException.badRequest("invalid_uri", message));
  }
}
