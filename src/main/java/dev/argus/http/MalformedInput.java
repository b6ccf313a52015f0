package dev.argus.http;

import java.util.Set;

/**
 * Recognizes failures raised while Netty's HTTP codecs decode what a client sent (multipart bodies, form
 * encodings): they are the client's malformed input, not a server fault, whatever exception type the codec threw
 * (it throws its own decoder exceptions, but also an {@code IndexOutOfBounds} for an empty boundary or a
 * {@code NullPointerException} for a part without a name).
 */
final class MalformedInput {

  private static final Set<String> DECODER_PACKAGES = Set.of("io.netty.handler.codec.");

  private MalformedInput() {
  }

  static boolean is(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getClass().getName().startsWith("io.netty.handler.codec.")) {
        return true;
      }
      for (StackTraceElement frame : t.getStackTrace()) {
        String cls = frame.getClassName();
        if (cls.startsWith("java.") || cls.startsWith("jdk.")) {
          continue; // a JDK method the codec called
        }
        if (DECODER_PACKAGES.stream().anyMatch(cls::startsWith)) {
          return true;
        }
        break;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  static String describe(Throwable failure) {
    String name = failure.getClass().getSimpleName();
    if (name.contains("TooLong")) {
      return "a field or part header is too long";
    }
    if (failure instanceof NullPointerException) {
      return "a part lacks its name";
    }
    if (failure instanceof IndexOutOfBoundsException) {
      return "a boundary or header is empty";
    }
    String message = failure.getMessage();
    return message == null || message.isBlank() ? name : message.length() > 200 ? message.substring(0, 200) : message;
  }
}
