package dev.argus.eval.score;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Content terms of a text for the lexical scores: lower-cased runs of letters and digits of at least two characters,
 * minus a short list of English stop words. Pure and deterministic, so every score can be computed by hand.
 */
public final class Terms {

  private static final Set<String> STOP = Set.of("a", "an", "the", "and", "or", "but", "if", "then", "of", "to", "in",
      "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its",
      "this", "that", "these", "those", "do", "does", "did", "what", "which", "who", "whom", "how", "when", "where",
      "why", "can", "could", "should", "would", "will", "shall", "may", "might", "must", "have", "has", "had", "not",
      "no", "we", "you", "they", "he", "she", "our", "your", "their", "his", "her", "there", "about", "into", "than",
      "so", "such", "any", "all", "each", "me", "my", "us", "i");

  private Terms() {
  }

  /** The distinct content terms, in order of first appearance. */
  public static Set<String> of(String text) {
    Set<String> out = new LinkedHashSet<>();
    if (text == null) {
      return out;
    }
    StringBuilder cur = new StringBuilder();
    String lower = text.toLowerCase(Locale.ROOT);
    for (int i = 0; i <= lower.length(); i++) {
      char c = i < lower.length() ? lower.charAt(i) : ' ';
      if (Character.isLetterOrDigit(c)) {
        cur.append(c);
      } else if (!cur.isEmpty()) {
        String t = cur.toString();
        if (t.length() >= 2 && !STOP.contains(t)) {
          out.add(t);
        }
        cur.setLength(0);
      }
    }
    return out;
  }

  /** {@code |a ∩ b| / |a|}; 0 when {@code a} is empty. */
  public static double coverage(Set<String> a, Set<String> b) {
    if (a.isEmpty()) {
      return 0;
    }
    int hit = 0;
    for (String t : a) {
      if (b.contains(t)) {
        hit++;
      }
    }
    return (double) hit / a.size();
  }
}
