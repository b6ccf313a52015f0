package dev.argus.retrieval;

import dev.argus.config.RetrievalConf;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which retrievers a search runs when the request names none. Vector and keyword always run. The trigram leg
 * is the slowest of the three and pays off only where exact terms fail: identifiers (seller ids, emails,
 * IBAN-like strings, IP addresses, phone numbers — a token with an {@code @}, with both letters and digits, or
 * digits in two or more separated groups) and short queries, where one misspelt word is a large part of the
 * query. Plain numbers ("30 days", "2023") and hyphenated words do not count: the keyword leg matches them. With {@code retrieval.trigram = always} it
 * runs on every hybrid search; a request that lists its retrievers always gets exactly those.
 */
public final class TrigramPolicy {

  /** Queries with at most this many words are short enough for a typo to matter. */
  static final int SHORT_QUERY_WORDS = 4;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final Pattern IDENTIFIER = Pattern.compile(
      ".*@.*|.*\\p{L}.*\\p{N}.*|.*\\p{N}.*\\p{L}.*|.*\\p{N}+[-./:]\\p{N}+[-./:]\\p{N}.*");
  private static final List<Retriever> ALL = List.of(Retriever.values());
  private static final List<Retriever> DENSE_AND_KEYWORD = List.of(Retriever.VECTOR, Retriever.KEYWORD);

  private TrigramPolicy() {
  }

  public static List<Retriever> defaultRetrievers(String query, RetrievalConf conf) {
    return RetrievalConf.TRIGRAM_ALWAYS.equals(conf.trigram()) || needsTrigram(query) ? ALL : DENSE_AND_KEYWORD;
  }

  /**
   * What the trigram leg looks for when it runs beside the other retrievers: a short query as a whole (a typo
   * matters there); of a longer query only its identifier-like tokens, which are what the dense and keyword legs
   * cannot match — the rest of a long question is their job, and its many trigrams only make the leg slow.
   */
  public static String trigramText(String query) {
    String[] tokens = query.trim().split("\\s+");
    if (countWords(tokens) <= SHORT_QUERY_WORDS) {
      return query;
    }
    StringBuilder ids = new StringBuilder();
    for (String token : tokens) {
      if (IDENTIFIER.matcher(token).matches()) {
        ids.append(ids.length() == 0 ? "" : " ").append(token);
      }
    }
    return ids.length() == 0 ? query : ids.toString();
  }

  private static int countWords(String[] tokens) {
    int words = 0;
    for (String token : tokens) {
      if (!token.isEmpty() && WORD.matcher(token).find()) {
        words++;
      }
    }
    return words;
  }

  /** True for queries with an identifier-like token or with at most {@value #SHORT_QUERY_WORDS} words. */
  static boolean needsTrigram(String query) {
    int words = 0;
    for (String token : query.trim().split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      if (IDENTIFIER.matcher(token).matches()) {
        return true;
      }
      if (WORD.matcher(token).find()) {
        words++;
      }
    }
    return words <= SHORT_QUERY_WORDS;
  }
}
