package dev.argus.knowledge.sqlite;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The terms of a user's natural-language text that the text legs look for. The text itself never reaches a query
 * parser: words (letters and digits only) and trigrams are extracted here and become term queries, OR-ed, so that
 * BM25 ranks chunks by how many (and how rare) terms they share. Quotes, hyphens, colons, parentheses, {@code *},
 * {@code ^} and the words AND/OR/NOT/NEAR are therefore plain text.
 */
final class QueryTerms {

  static final int MAX_TERMS = 64;
  static final int MAX_TRIGRAMS = 128;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  /** Frequent English words that add cost but (almost) no ranking signal; dropped unless nothing else is left. */
  private static final Set<String> STOPWORDS = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "for", "from",
      "has", "have", "in", "is", "it", "its", "of", "on", "or", "that", "the", "to", "was", "were", "what", "which",
      "who", "with", "how", "does", "do", "did", "this", "these", "those", "there", "their", "than", "into", "can");

  private QueryTerms() {
  }

  /** Distinct lower-cased word terms (letters and digits) of the text, at most {@link #MAX_TERMS}. */
  static List<String> wordTerms(String text) {
    Set<String> all = new LinkedHashSet<>();
    if (text != null) {
      Matcher m = WORD.matcher(text);
      while (m.find() && all.size() < MAX_TERMS * 4) {
        all.add(m.group().toLowerCase(Locale.ROOT));
      }
    }
    List<String> content = new ArrayList<>();
    for (String t : all) {
      if (!STOPWORDS.contains(t)) {
        content.add(t);
      }
    }
    List<String> terms = content.isEmpty() ? new ArrayList<>(all) : content;
    return terms.size() > MAX_TERMS ? terms.subList(0, MAX_TERMS) : terms;
  }

  /**
   * Distinct trigrams (3 code points, lower-cased) of the query's whitespace-separated terms, at most
   * {@link #MAX_TRIGRAMS}. Terms keep their inner punctuation so identifiers such as {@code a.b@x.com} or
   * {@code SLR-88213} produce their own trigrams; surrounding punctuation is trimmed.
   */
  static List<String> trigrams(String text) {
    Set<String> grams = new LinkedHashSet<>();
    if (text == null) {
      return List.of();
    }
    List<String> terms = new ArrayList<>();
    for (String raw : WHITESPACE.split(text.toLowerCase(Locale.ROOT))) {
      String term = trimPunctuation(raw);
      if (!term.isEmpty()) {
        terms.add(term);
      }
    }
    // Stopwords add only trigrams that nearly every chunk shares; leave them out unless nothing else is left.
    List<String> content = terms.stream().filter(t -> !STOPWORDS.contains(t)).toList();
    for (String term : content.isEmpty() ? terms : content) {
      int[] cps = term.codePoints().toArray();
      for (int i = 0; i + 3 <= cps.length && grams.size() < MAX_TRIGRAMS; i++) {
        grams.add(new String(cps, i, 3));
      }
      if (grams.size() >= MAX_TRIGRAMS) {
        break;
      }
    }
    return new ArrayList<>(grams);
  }

  private static String trimPunctuation(String term) {
    int start = 0;
    int end = term.length();
    while (start < end && !Character.isLetterOrDigit(term.codePointAt(start))) {
      start += Character.charCount(term.codePointAt(start));
    }
    while (end > start && !Character.isLetterOrDigit(term.codePointBefore(end))) {
      end -= Character.charCount(term.codePointBefore(end));
    }
    return term.substring(start, end);
  }
}
