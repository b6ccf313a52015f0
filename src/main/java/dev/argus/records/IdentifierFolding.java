package dev.argus.records;

import java.text.Normalizer;
import java.util.Map;

/**
 * Takes the disguises off an identifier before a record is validated and stored, so that one e-mail address or phone
 * number written to look different is still one value (and one graph entity): Unicode compatibility forms folded
 * (NFKC: full-width digits and letters, ligatures), invisible format characters removed (zero-width space and joiners,
 * soft hyphen, bidirectional marks: Unicode category Cf), whitespace inside an e-mail address removed
 * ({@code "k.marlo @ example.com"}), and in an e-mail address that mixes Latin letters with look-alike Cyrillic or
 * Greek ones, the look-alikes mapped to their Latin twins ({@code "pаypal"} with a Cyrillic {@code а}). An address
 * written wholly in another script is left alone. Plus-addressing is the graph's business (its e-mail
 * canonicalization drops the tag); spacing in phone numbers is libphonenumber's. The table is deliberately small:
 * Unicode's full confusables skeleton (ICU4J) is meant for comparison, not for a stored form, and maps ordinary Latin
 * sequences too ({@code rn} → {@code m}).
 */
public final class IdentifierFolding {

  /** Cyrillic and Greek letters that render like a Latin letter, lower and upper case. */
  private static final Map<Character, Character> LOOKALIKES = Map.ofEntries(
      Map.entry('а', 'a'), Map.entry('А', 'A'), Map.entry('в', 'b'), Map.entry('В', 'B'), Map.entry('с', 'c'),
      Map.entry('С', 'C'), Map.entry('ԁ', 'd'), Map.entry('е', 'e'), Map.entry('Е', 'E'), Map.entry('һ', 'h'),
      Map.entry('Н', 'H'), Map.entry('і', 'i'), Map.entry('І', 'I'), Map.entry('ј', 'j'), Map.entry('Ј', 'J'),
      Map.entry('к', 'k'), Map.entry('К', 'K'), Map.entry('ӏ', 'l'), Map.entry('М', 'M'), Map.entry('о', 'o'),
      Map.entry('О', 'O'), Map.entry('р', 'p'), Map.entry('Р', 'P'), Map.entry('ԛ', 'q'), Map.entry('ѕ', 's'),
      Map.entry('Ѕ', 'S'), Map.entry('Т', 'T'), Map.entry('у', 'y'), Map.entry('У', 'Y'), Map.entry('ԝ', 'w'),
      Map.entry('х', 'x'), Map.entry('Х', 'X'),
      Map.entry('α', 'a'), Map.entry('Α', 'A'), Map.entry('Β', 'B'), Map.entry('ε', 'e'), Map.entry('Ε', 'E'),
      Map.entry('Η', 'H'), Map.entry('ι', 'i'), Map.entry('Ι', 'I'), Map.entry('κ', 'k'), Map.entry('Κ', 'K'),
      Map.entry('Μ', 'M'), Map.entry('ν', 'v'), Map.entry('Ν', 'N'), Map.entry('ο', 'o'), Map.entry('Ο', 'O'),
      Map.entry('ρ', 'p'), Map.entry('Ρ', 'P'), Map.entry('τ', 't'), Map.entry('Τ', 'T'), Map.entry('υ', 'u'),
      Map.entry('χ', 'x'), Map.entry('Χ', 'X'), Map.entry('Υ', 'Y'), Map.entry('Ζ', 'Z'));

  private IdentifierFolding() {
  }

  /** An e-mail address without its disguises (null stays null). */
  public static String email(String raw) {
    if (raw == null) {
      return null;
    }
    String s = invisibleRemoved(Normalizer.normalize(raw, Normalizer.Form.NFKC));
    s = s.replaceAll("[\\s\\p{Z}]+", "");
    if (!s.chars().anyMatch(c -> c < 128 && Character.isLetter(c))) {
      return s; // no Latin letter at all: a wholly non-Latin address, not a disguised one
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out.append(LOOKALIKES.getOrDefault(c, c));
    }
    return out.toString();
  }

  /** A phone number without invisible characters and compatibility forms (null stays null). */
  public static String phone(String raw) {
    if (raw == null) {
      return null;
    }
    return invisibleRemoved(Normalizer.normalize(raw, Normalizer.Form.NFKC)).strip();
  }

  private static String invisibleRemoved(String s) {
    return s.replaceAll("\\p{Cf}+", "");
  }
}
