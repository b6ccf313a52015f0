package dev.argus.feedback;

import java.util.Locale;

/**
 * Why a verdict was given; wire form lower case. {@link #consistentWith} says which labels a reason can go with:
 * {@code good_decision} only with {@code correct}; a false positive, a false negative or a wrong severity only with
 * {@code incorrect}; missing evidence and other with either.
 */
public enum Reason {
  FALSE_POSITIVE, FALSE_NEGATIVE, WRONG_SEVERITY, MISSING_EVIDENCE, GOOD_DECISION, OTHER;

  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Reason parse(String wire) {
    for (Reason r : values()) {
      if (r.wire().equals(wire)) {
        return r;
      }
    }
    return null;
  }

  public boolean consistentWith(Label label) {
    return switch (this) {
      case GOOD_DECISION -> label == Label.CORRECT;
      case FALSE_POSITIVE, FALSE_NEGATIVE, WRONG_SEVERITY -> label == Label.INCORRECT;
      case MISSING_EVIDENCE, OTHER -> true;
    };
  }
}
