package dev.argus.feedback;

import java.util.Locale;

/** An analyst's verdict on a decision or an answer; wire form lower case. */
public enum Label {
  CORRECT, INCORRECT;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The label of a wire value, or null when it is none of them. */
  public static Label parse(String wire) {
    for (Label l : values()) {
      if (l.wire().equals(wire)) {
        return l;
      }
    }
    return null;
  }
}
