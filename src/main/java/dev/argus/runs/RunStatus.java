package dev.argus.runs;

/** Where a run is in its life: {@code running} until it ends {@code completed} (with a {@code final}) or {@code failed}. */
public enum RunStatus {
  RUNNING, COMPLETED, FAILED;

  public String wire() {
    return name().toLowerCase();
  }

  public static RunStatus fromWire(String s) {
    return valueOf(s.toUpperCase());
  }
}
