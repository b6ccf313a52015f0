package dev.argus.citations;

/** A citation that does not follow one of the three written forms; the message says what is wrong. */
public final class MalformedCitationException extends Exception {

  public MalformedCitationException(String message) {
    super(message, null, false, false);
  }
}
