package dev.argus.retrieval;

/** What a result is expanded with after the top-k cut (small-to-big retrieval). */
public enum Expansion {
  /** The chunk alone. */
  NONE("none"),
  /** The whole parent document ({@code parent}). */
  PARENT("parent"),
  /** The chunks just before and after the hit in its document ({@code neighbours}). */
  NEIGHBOURS("neighbours");

  private final String wireName;

  Expansion(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** The expansion with this wire name ({@code neighbors} is accepted too), or {@code null}. */
  public static Expansion parse(String name) {
    if ("neighbors".equals(name)) {
      return NEIGHBOURS;
    }
    for (Expansion e : values()) {
      if (e.wireName.equals(name)) {
        return e;
      }
    }
    return null;
  }
}
