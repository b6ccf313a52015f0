package dev.argus.retrieval;

import java.util.Locale;

/** How the rankings of several retrievers are combined; see {@link Fusion}. */
public enum FusionMode {
  /** Reciprocal rank fusion: {@code sum 1/(k + rank)}. */
  RRF,
  /** Weighted sum of min-max normalized scores. */
  WEIGHTED;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static FusionMode parse(String name) {
    for (FusionMode m : values()) {
      if (m.wireName().equals(name)) {
        return m;
      }
    }
    return null;
  }
}
