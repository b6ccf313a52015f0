package dev.argus.retrieval;

/**
 * Which results a search keeps before the top-k cut: every ranked chunk, or only the best-ranked chunk of each
 * document, so that the top k are k different documents ({@code collapse: "document"}).
 */
public enum Collapse {
  /** Every chunk in fused order: several chunks of one document can take places in the top k. */
  NONE("none"),
  /** Each document once, at the place of its best-ranked chunk (the chunk returned is that one). */
  DOCUMENT("document");

  private final String wireName;

  Collapse(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The collapse with this wire name, or {@code null}. */
  public static Collapse parse(String name) {
    for (Collapse c : values()) {
      if (c.wireName.equals(name)) {
        return c;
      }
    }
    return null;
  }
}
