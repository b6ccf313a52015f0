package dev.argus.graph.normalize;

import com.google.i18n.phonenumbers.NumberParseException;
import com.google.i18n.phonenumbers.PhoneNumberMatch;
import com.google.i18n.phonenumbers.PhoneNumberUtil;
import com.google.i18n.phonenumbers.Phonenumber;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Phone numbers to E.164 with libphonenumber: a number written with a {@code +} prefix needs no region; a national
 * number is read in {@code defaultRegion} (the record's country). Numbers that cannot be numbers of their region
 * ({@code isPossibleNumber}) are refused; full validity is not required, so test ranges such as 555 numbers pass.
 */
public final class Phones {

  private static final PhoneNumberUtil UTIL = PhoneNumberUtil.getInstance();

  private Phones() {
  }

  /** The E.164 form of {@code raw} ({@code +4915112345678}), or empty. */
  public static Optional<String> e164(String raw, String defaultRegion) {
    if (raw == null || raw.isBlank() || raw.length() > 40) {
      return Optional.empty();
    }
    try {
      Phonenumber.PhoneNumber n = UTIL.parse(raw, defaultRegion == null ? "ZZ" : defaultRegion);
      if (!UTIL.isPossibleNumber(n)) {
        return Optional.empty();
      }
      return Optional.of(UTIL.format(n, PhoneNumberUtil.PhoneNumberFormat.E164));
    } catch (NumberParseException e) {
      return Optional.empty();
    }
  }

  /** The phone numbers written in free text (libphonenumber's matcher, lenient: possible numbers), as E.164. */
  public static List<String> find(String text, String defaultRegion) {
    List<String> out = new ArrayList<>();
    for (PhoneNumberMatch m : UTIL.findNumbers(text, defaultRegion == null ? "ZZ" : defaultRegion,
        PhoneNumberUtil.Leniency.POSSIBLE, Long.MAX_VALUE)) {
      out.add(UTIL.format(m.number(), PhoneNumberUtil.PhoneNumberFormat.E164));
    }
    return out;
  }
}
