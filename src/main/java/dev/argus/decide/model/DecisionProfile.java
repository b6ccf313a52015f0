package dev.argus.decide.model;

import dev.argus.common.ApiException;

/**
 * The two decision profiles and the wire names of their outcomes: {@code seller_onboarding} answers APPROVE / REVIEW /
 * REJECT, {@code transaction_investigation} ALLOW / REVIEW / BLOCK. Inside the engine both use {@link Verdict}.
 */
public enum DecisionProfile {
  SELLER_ONBOARDING("seller_onboarding", "APPROVE", "REJECT"),
  TRANSACTION_INVESTIGATION("transaction_investigation", "ALLOW", "BLOCK");

  private final String wire;
  private final String pass;
  private final String deny;

  DecisionProfile(String wire, String pass, String deny) {
    this.wire = wire;
    this.pass = pass;
    this.deny = deny;
  }

  public String wire() {
    return wire;
  }

  /** The outcome's wire name in this profile. */
  public String outcome(Verdict v) {
    return switch (v) {
      case PASS -> pass;
      case REVIEW -> "REVIEW";
      case DENY -> deny;
    };
  }

  /** The verdict of an outcome's wire name in this profile; 400 {@code invalid_outcome} otherwise. */
  public Verdict verdict(String outcome) {
    if (pass.equals(outcome)) {
      return Verdict.PASS;
    }
    if ("REVIEW".equals(outcome)) {
      return Verdict.REVIEW;
    }
    if (deny.equals(outcome)) {
      return Verdict.DENY;
    }
    throw ApiException.badRequest("invalid_outcome", "outcome of " + wire + " must be " + pass + ", REVIEW or " + deny
        + ", got '" + outcome + "'");
  }

  public static DecisionProfile fromWire(String name) {
    for (DecisionProfile p : values()) {
      if (p.wire.equals(name)) {
        return p;
      }
    }
    throw ApiException.badRequest("unknown_profile", "unknown decision profile '" + name
        + "' (known: seller_onboarding, transaction_investigation)");
  }
}
