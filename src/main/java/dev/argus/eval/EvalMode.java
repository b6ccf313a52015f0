package dev.argus.eval;

import java.util.List;
import java.util.Locale;

/**
 * A retrieval configuration under evaluation: one retriever alone, all three fused ({@code hybrid}), or Argus's
 * default hybrid search, which names no retrievers and lets {@code retrieval.trigram} decide whether the trigram
 * leg runs for each query ({@code hybrid-default}).
 */
public enum EvalMode {
  VECTOR(List.of("vector")),
  KEYWORD(List.of("keyword")),
  TRIGRAM(List.of("trigram")),
  HYBRID(List.of("vector", "keyword", "trigram")),
  HYBRID_DEFAULT(null);

  private final List<String> retrievers;

  EvalMode(List<String> retrievers) {
    this.retrievers = retrievers;
  }

  /** The {@code retrievers} list of the search request; {@code null} for the service's default. */
  public List<String> retrievers() {
    return retrievers;
  }

  /** The mode's name in tables and JSON: {@code vector}, {@code keyword}, {@code trigram}, {@code hybrid}, {@code hybrid-default}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
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
        case "hybrid-default" -> HYBRID_DEFAULT;
        default -> throw new IllegalArgumentException("unknown mode '" + raw.trim()
            + "'; expected vector, keyword, trigram, hybrid or hybrid-default");
      };
      if (!modes.contains(mode)) {
        modes.add(mode);
      }
    }
    if (modes.isEmpty()) {
      throw new IllegalArgumentException("no mode given; expected vector, keyword, trigram, hybrid or hybrid-default");
    }
    return modes;
  }
}
