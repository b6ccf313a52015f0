package dev.argus.decide.model;

/** A profile-neutral outcome, ordered by severity: PASS (approve/allow) &lt; REVIEW &lt; DENY (reject/block). */
public enum Verdict {
  PASS, REVIEW, DENY;

  /** The more severe of the two. */
  public Verdict atLeast(Verdict other) {
    return other.ordinal() > ordinal() ? other : this;
  }

  public static Verdict fromWire(String action) {
    return switch (action == null ? "" : action.toLowerCase(java.util.Locale.ROOT)) {
      case "approve", "allow", "pass" -> PASS;
      case "review" -> REVIEW;
      case "reject", "block", "deny" -> DENY;
      default -> throw new IllegalArgumentException("unknown action '" + action + "' (approve, review or reject)");
    };
  }
}
