package dev.argus.retrieval;

import java.util.Locale;

/** The three retrieval legs, by their wire names {@code vector}, {@code keyword} and {@code trigram}. */
public enum Retriever {
  VECTOR, KEYWORD, TRIGRAM;

  /** The name used in requests, responses and configuration. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The retriever with this wire name, or {@code null} when there is none. */
  public static Retriever parse(String name) {
    for (Retriever r : values()) {
      if (r.wireName().equals(name)) {
        return r;
      }
    }
    return null;
  }
}
