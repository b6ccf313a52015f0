package dev.argus.bridge;

import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * What a bridge envelope's {@code headers} may hold: an object whose names are HTTP tokens (letters, digits and
 * {@code !#$%&'*+-.^_`|~}) and whose values are strings without control characters (a tab is allowed). The SockJS
 * bridge copies the headers into an HTTP header map, which throws on anything else after the bridge hook has let
 * the message through: a request neither refused nor delivered, whose caller waits for its own timeout (found by
 * scripts/fuzz-bridge.py: a value holding U+0000). Both transports apply the same rule, so a frame means the same
 * on either.
 */
final class BridgeHeaders {

  private static final String TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~";

  private BridgeHeaders() {
  }

  /** True for a missing {@code headers} field or one the bridges can carry. */
  static boolean valid(Object headers) {
    if (headers == null) {
      return true;
    }
    if (!(headers instanceof JsonObject object)) {
      return false;
    }
    for (Map.Entry<String, Object> header : object) {
      if (!token(header.getKey()) || !(header.getValue() instanceof String value) || !printable(value)) {
        return false;
      }
    }
    return true;
  }

  private static boolean token(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (!alphanumeric && TOKEN_PUNCTUATION.indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean printable(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        return false;
      }
    }
    return true;
  }
}
