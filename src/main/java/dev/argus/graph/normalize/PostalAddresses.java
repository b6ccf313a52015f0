package dev.argus.graph.normalize;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Postal addresses to one comparable key, {@code line|city|postal code|country}: lower case without accents or
 * punctuation, street words abbreviated the USPS way (street to st, avenue to ave, ...), and unit designators
 * (apartment, suite, unit, floor, {@code #12}) dropped, so the building is the node: people at one building meet
 * (a family, or one synthetic identity's "Apt 2" and "Apt 3"); postal codes lose spaces.
 */
public final class PostalAddresses {

  private static final Map<String, String> WORDS = Map.ofEntries(Map.entry("street", "st"), Map.entry("str", "st"),
      Map.entry("avenue", "ave"), Map.entry("av", "ave"), Map.entry("road", "rd"), Map.entry("boulevard", "blvd"),
      Map.entry("drive", "dr"), Map.entry("lane", "ln"), Map.entry("court", "ct"), Map.entry("place", "pl"),
      Map.entry("square", "sq"), Map.entry("highway", "hwy"), Map.entry("parkway", "pkwy"), Map.entry("north", "n"),
      Map.entry("south", "s"), Map.entry("east", "e"), Map.entry("west", "w"), Map.entry("terrace", "ter"),
      Map.entry("strasse", "str"), Map.entry("straße", "str"));
  private static final Pattern UNIT = Pattern.compile(
      "\\b(apt|apartment|suite|ste|unit|floor|fl|room|rm)\\b\\.?\\s*[a-z0-9-]+|#\\s*[a-z0-9-]+");
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");

  private PostalAddresses() {
  }

  /** The key of an address; blank parts stay empty. Null when it has no street line and no postal code. */
  public static String key(String line1, String city, String postalCode, String country) {
    String line = words(UNIT.matcher(plain(line1)).replaceAll(" "));
    String pc = plain(postalCode).replace(" ", "");
    if (line.isEmpty() && pc.isEmpty()) {
      return null;
    }
    return line + "|" + words(plain(city)) + "|" + pc + "|" + plain(country).replace(" ", "");
  }

  private static String plain(String s) {
    if (s == null) {
      return "";
    }
    String t = MARKS.matcher(Normalizer.normalize(s.toLowerCase(Locale.ROOT), Normalizer.Form.NFKD)).replaceAll("");
    return t.replaceAll("[^a-z0-9# ]+", " ").replaceAll("\\s+", " ").strip();
  }

  private static String words(String s) {
    List<String> out = new ArrayList<>();
    for (String w : s.split(" ")) {
      if (!w.isEmpty()) {
        out.add(WORDS.getOrDefault(w, w));
      }
    }
    return String.join(" ", out);
  }
}
