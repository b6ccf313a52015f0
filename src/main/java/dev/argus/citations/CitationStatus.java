package dev.argus.citations;

/** What a validated citation is worth: {@code valid} supports its claim, {@code flagged} weakly, {@code excluded} not. */
public enum CitationStatus {
  VALID("valid"), FLAGGED("flagged"), EXCLUDED("excluded");

  private final String wire;

  CitationStatus(String wire) {
    this.wire = wire;
  }

  public String wire() {
    return wire;
  }

  public static CitationStatus fromWire(String s) {
    for (CitationStatus st : values()) {
      if (st.wire.equals(s)) {
        return st;
      }
    }
    throw new IllegalArgumentException("unknown citation status: " + s);
  }
}
