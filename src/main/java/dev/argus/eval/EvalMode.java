package dev.argus.eval;

import java.util.List;
import java.util.Locale;

/** A retrieval configuration under evaluation: one retriever alone, or all three fused. */
public enum EvalMode {
  VECTOR(List.of("vector")),
  KEYWORD(List.of("keyword")),
  TRIGRAM(List.of("trigram")),
  HYBRID(List.of("vector", "keyword", "trigram"));

  private final List<String> retrievers;

  EvalMode(List<String> retrievers) {
    this.retrievers = retrievers;
  }

  /** The {@code retrievers} list of the search request. */
  public List<String> retrievers() {
    return retrievers;
  }

  /** The mode's name in tables and JSON: {@code vector}, {@code keyword}, {@code trigram}, {@code hybrid}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a comma list such as {@code vector,hybrid}; unknown names fail with a message naming them. */
  public static List<EvalMode> parseList(String csv) {
    List<EvalMode> modes = new java.util.ArrayList<>();
    for (String raw : csv.split(",")) {
      String name = raw.trim().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      EvalMode mode = switch (name) {
        case "vector" -> VECTOR;
        case "keyword" -> KEYWORD;
        case "trigram" -> TRIGRAM;
        case "hybrid" -> HYBRID;
        default -> throw new IllegalArgumentException("unknown mode '" + raw.trim()
            + "'; expected vector, keyword, trigram or hybrid");
      };
      if (!modes.contains(mode)) {
        modes.add(mode);
      }
    }
    if (modes.isEmpty()) {
      throw new IllegalArgumentException("no mode given; expected vector, keyword, trigram or hybrid");
    }
    return modes;
  }
}
