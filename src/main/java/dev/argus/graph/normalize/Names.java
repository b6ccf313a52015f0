package dev.argus.graph.normalize;

import java.text.Normalizer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Person and business names: a normalized form (lower case, no accents or punctuation, legal-form suffixes such as
 * Ltd, GmbH, LLC dropped) and trigram similarity for fuzzy matching: the Jaccard index of the two names' sets of
 * three-letter grams, each word padded with two spaces in front and one behind (as PostgreSQL's pg_trgm does).
 */
public final class Names {

  private static final Set<String> LEGAL_FORMS = Set.of("ltd", "limited", "llc", "inc", "incorporated", "gmbh", "co",
      "corp", "corporation", "plc", "sa", "sarl", "sas", "bv", "ag", "kg", "ug", "srl", "spa", "oy", "ab", "pty", "lp");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern PUNCTUATION = Pattern.compile("[^a-z0-9 ]+");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private Names() {
  }

  /** The normalized name; empty when nothing is left. */
  public static String normalize(String raw) {
    if (raw == null) {
      return "";
    }
    String t = MARKS.matcher(Normalizer.normalize(raw.toLowerCase(Locale.ROOT), Normalizer.Form.NFKD)).replaceAll("");
    t = SPACES.matcher(PUNCTUATION.matcher(t).replaceAll(" ")).replaceAll(" ").strip();
    List<String> words = List.of(t.split(" "));
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.isEmpty() || (i > 0 && LEGAL_FORMS.contains(w))) {
        continue;
      }
      out.append(out.length() == 0 ? "" : " ").append(w);
    }
    return out.toString();
  }

  /** The trigrams of a normalized text, pg_trgm style. */
  public static Set<String> trigrams(String normalized) {
    Set<String> grams = new HashSet<>();
    for (String w : normalized.split(" ")) {
      if (w.isEmpty()) {
        continue;
      }
      String p = "  " + w + " ";
      for (int i = 0; i + 3 <= p.length(); i++) {
        grams.add(p.substring(i, i + 3));
      }
    }
    return grams;
  }

  /** Trigram similarity of two normalized texts in [0, 1]: |A ∩ B| / |A ∪ B|. */
  public static double similarity(String a, String b) {
    Set<String> x = trigrams(a);
    Set<String> y = trigrams(b);
    if (x.isEmpty() || y.isEmpty()) {
      return 0;
    }
    Set<String> common = new HashSet<>(x);
    common.retainAll(y);
    return (double) common.size() / (x.size() + y.size() - common.size());
  }
}
