package dev.argus.agent.compose;

import java.util.regex.Pattern;

/**
 * Removes markup from answer text for clients that render Markdown or HTML: tags, images, links (their text stays),
 * autolinks, emphasis and code marks, heading and quote markers. Citation markers ({@code [cite:...]}) stay. This is
 * a courtesy, not a sanitiser: a client that renders Markdown or HTML must still sanitise what it renders.
 */
public final class Markup {

  private static final Pattern TAG = Pattern.compile("(?is)<\\s*(script|style)\\b.*?<\\s*/\\s*\\1\\s*>|<[^>]{0,500}>");
  private static final Pattern IMAGE = Pattern.compile("!\\[[^\\]]{0,500}\\]\\([^)]{0,2000}\\)");
  private static final Pattern LINK = Pattern.compile("\\[([^\\]]{0,500})\\]\\([^)]{0,2000}\\)");
  private static final Pattern REF_LINK = Pattern.compile("\\[([^\\]]{0,500})\\]\\[[^\\]]{0,100}\\]");
  private static final Pattern EMPHASIS = Pattern.compile("(\\*\\*|__|~~|`+)");
  private static final Pattern SINGLE = Pattern.compile("(?<![\\w*])[*_](?=\\S)([^*_\\n]{1,200}?)(?<=\\S)[*_](?![\\w*])");
  private static final Pattern LINE_MARKS = Pattern.compile("(?m)^\\s{0,3}(#{1,6}\\s+|>\\s?)");

  private Markup() {
  }

  public static String strip(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String t = TAG.matcher(text).replaceAll("");
    t = IMAGE.matcher(t).replaceAll("");
    t = LINK.matcher(t).replaceAll("$1");
    t = REF_LINK.matcher(t).replaceAll("$1");
    t = EMPHASIS.matcher(t).replaceAll("");
    t = SINGLE.matcher(t).replaceAll("$1");
    t = LINE_MARKS.matcher(t).replaceAll("");
    return t.replaceAll("[ \\t]{2,}", " ").trim();
  }
}
