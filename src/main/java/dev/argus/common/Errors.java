package dev.argus.common;

/** Small helpers for reporting failures. */
public final class Errors {

  private Errors() {
  }

  /** The message of the innermost cause (its class name when it has no message): what actually went wrong. */
  public static String rootMessage(Throwable err) {
    Throwable t = err;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
