package dev.argus.agent.compose;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Sentence splitting and content tokens (lower case, stop words removed, light suffix stemming). */
public final class Text {

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'@._-]*");
  private static final Set<String> STOP = Set.of(
      "a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "to", "in", "on", "at", "by", "for", "with",
      "from", "into", "about", "as", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did",
      "have", "has", "had", "having", "it", "its", "this", "that", "these", "those", "there", "their", "they", "them",
      "we", "our", "you", "your", "i", "me", "my", "he", "she", "his", "her", "what", "which", "who", "whom", "whose",
      "when", "where", "why", "how", "can", "could", "should", "would", "will", "shall", "may", "might", "must",
      "so", "than", "too", "very", "just", "also", "any", "all", "some", "such", "each", "other", "more", "most",
      "tell", "please", "know", "explain", "describe", "give", "show", "us", "up", "out", "over", "under", "again",
      "s", "t", "via", "per", "not", "no", "nor", "only", "own", "same", "both", "few", "while", "after", "before");
  private static final Set<String> NEGATIONS = Set.of("not", "no", "never", "none", "cannot", "can't", "don't",
      "doesn't", "isn't", "aren't", "won't", "without", "nor");

  private Text() {
  }

  /** The sentences of a text, trimmed, blank ones left out. */
  public static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    // Markdown structure: headings, list items and blank lines also end a sentence.
    List<String> blocks = new ArrayList<>();
    StringBuilder para = new StringBuilder();
    for (String line : text.split("\\r?\\n")) {
      String t = line.trim();
      boolean heading = t.startsWith("#");
      boolean item = t.matches("([-*+]|\\d+\\.)\\s+.*");
      if (t.isEmpty() || heading || item) {
        if (!para.isEmpty()) {
          blocks.add(para.toString());
          para.setLength(0);
        }
        if (heading || item) {
          blocks.add(t.replaceFirst("^(#+|[-*+]|\\d+\\.)\\s*", ""));
        }
      } else {
        para.append(para.isEmpty() ? "" : " ").append(t);
      }
    }
    if (!para.isEmpty()) {
      blocks.add(para.toString());
    }
    for (String block : blocks) {
      String flat = block.replaceAll("\\s+", " ").trim();
      if (flat.isEmpty()) {
        continue;
      }
      BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
      it.setText(flat);
      int start = it.first();
      for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
        String s = flat.substring(start, end).trim();
        if (!s.isEmpty()) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** All word tokens, lower case (for negation and intensifier checks). */
  public static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    var m = WORD.matcher(text == null ? "" : text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(trimPunct(m.group()));
    }
    return out;
  }

  /**
   * Content tokens: words without stop words, stemmed, in first-seen order; a hyphenated word also gives its parts
   * ("welcome-coupon": welcome-coupon, welcome, coupon).
   */
  public static Set<String> contentTokens(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : words(text)) {
      if (w.length() < 2 || STOP.contains(w)) {
        continue;
      }
      out.add(stem(w));
      if (w.indexOf('-') > 0) {
        for (String part : w.split("-")) {
          if (part.length() >= 3 && !STOP.contains(part) && !part.chars().allMatch(Character::isDigit)) {
            out.add(stem(part));
          }
        }
      }
    }
    return out;
  }

  public static boolean isStopWord(String word) {
    return STOP.contains(word);
  }

  /**
   * Whether a content token occurs in a set of tokens: the same stem, or one a prefix of the other when the shorter
   * has at least five letters ("contain" / "containment", "verif" forms), so word families meet.
   */
  public static boolean occurs(String token, Set<String> in) {
    if (in.contains(token)) {
      return true;
    }
    if (token.length() < 5) {
      return false;
    }
    for (String t : in) {
      if (t.length() >= 5 && (t.startsWith(token) || token.startsWith(t))) {
        return true;
      }
    }
    return false;
  }

  /** Share of {@code tokens} that {@link #occurs occur} in {@code in}; 0 when {@code tokens} is empty. */
  public static double familyCoverage(Set<String> tokens, Set<String> in) {
    if (tokens.isEmpty()) {
      return 0;
    }
    int hit = 0;
    for (String t : tokens) {
      if (occurs(t, in)) {
        hit++;
      }
    }
    return (double) hit / tokens.size();
  }

  public static boolean hasNegation(String text) {
    for (String w : words(text)) {
      if (NEGATIONS.contains(w) || w.endsWith("n't")) {
        return true;
      }
    }
    return false;
  }

  /** Share of {@code tokens} that also appear in {@code in}; 0 when {@code tokens} is empty. */
  public static double coverage(Set<String> tokens, Set<String> in) {
    if (tokens.isEmpty()) {
      return 0;
    }
    int hit = 0;
    for (String t : tokens) {
      if (in.contains(t)) {
        hit++;
      }
    }
    return (double) hit / tokens.size();
  }

  public static double jaccard(Set<String> a, Set<String> b) {
    if (a.isEmpty() && b.isEmpty()) {
      return 1;
    }
    int inter = 0;
    for (String t : a) {
      if (b.contains(t)) {
        inter++;
      }
    }
    return (double) inter / (a.size() + b.size() - inter);
  }

  static String stem(String w) {
    if (w.length() > 5 && w.endsWith("ing")) {
      return w.substring(0, w.length() - 3);
    }
    if (w.length() > 4 && w.endsWith("ies")) {
      return w.substring(0, w.length() - 3) + "y";
    }
    if (w.length() > 4 && w.endsWith("ed")) {
      return w.substring(0, w.length() - 2);
    }
    if (w.length() > 4 && w.endsWith("es") && !w.endsWith("ses")) {
      return w.substring(0, w.length() - 2);
    }
    if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) {
      return w.substring(0, w.length() - 1);
    }
    return w;
  }

  private static String trimPunct(String w) {
    int end = w.length();
    while (end > 0 && ".'_-@".indexOf(w.charAt(end - 1)) >= 0) {
      end--;
    }
    return w.substring(0, end);
  }
}
