package dev.argus.agent.compose;

/**
 * Cleans a model's streamed draft before it is shown: citation markers (and anything written in their form) are
 * removed, so a marker the model copied from a document never streams as if it were real. Text from an unclosed
 * {@code [} is held back until the bracket closes (or {@link #HOLD_MAX} characters pass), so a marker split across
 * deltas is still recognised.
 */
public final class DraftFilter {

  /** Held-back text longer than this is released: it is not a marker. */
  static final int HOLD_MAX = 200;

  private final StringBuilder pending = new StringBuilder();
  /** The text shown so far ends in whitespace (a removed marker must not leave two spaces). */
  private boolean endsInSpace = true;

  /** The part of the draft that can be shown after this delta (possibly empty). */
  public String accept(String delta) {
    pending.append(delta == null ? "" : delta);
    int open = pending.lastIndexOf("[");
    int cut = open >= 0 && pending.indexOf("]", open) < 0 && pending.length() - open < HOLD_MAX ? open
        : pending.length();
    String out = pending.substring(0, cut);
    pending.delete(0, cut);
    return clean(out);
  }

  /** What is still held back, at the end of the stream. */
  public String finish() {
    String out = pending.toString();
    pending.setLength(0);
    return clean(out);
  }

  private String clean(String text) {
    String out = text.isEmpty() ? text : Citations.stripMarkers(text);
    if (endsInSpace) {
      out = out.stripLeading();
    }
    if (!out.isEmpty()) {
      endsInSpace = Character.isWhitespace(out.charAt(out.length() - 1));
    }
    return out;
  }
}
