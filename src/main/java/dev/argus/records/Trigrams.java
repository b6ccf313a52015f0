package dev.argus.records;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Trigram similarity as PostgreSQL's pg_trgm defines it, so both stores score fuzzy name matches alike: the text is
 * lower-cased and split into words of letters and digits; each word, padded with two spaces in front and one behind,
 * gives its three-character windows; similarity = shared trigrams / all distinct trigrams of both (0..1).
 */
public final class Trigrams {

  private Trigrams() {
  }

  public static Set<String> of(String text) {
    Set<String> out = new HashSet<>();
    for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (word.isEmpty()) {
        continue;
      }
      String padded = "  " + word + " ";
      for (int i = 0; i + 3 <= padded.length(); i++) {
        out.add(padded.substring(i, i + 3));
      }
    }
    return out;
  }

  public static double similarity(String a, String b) {
    Set<String> x = of(a);
    Set<String> y = of(b);
    if (x.isEmpty() || y.isEmpty()) {
      return 0;
    }
    int shared = 0;
    for (String t : x) {
      if (y.contains(t)) {
        shared++;
      }
    }
    return (double) shared / (x.size() + y.size() - shared);
  }
}
