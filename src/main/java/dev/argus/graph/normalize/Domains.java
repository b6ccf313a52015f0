package dev.argus.graph.normalize;

import java.net.IDN;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Domain names from websites and addresses: lower case, ASCII (IDNA), no scheme, path, port or leading {@code www.}. */
public final class Domains {

  private static final Pattern NAME = Pattern.compile("(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{1,62}");

  private Domains() {
  }

  /** The domain of a website URL or bare host name, or empty. */
  public static Optional<String> of(String raw) {
    if (raw == null || raw.isBlank() || raw.length() > 2048) {
      return Optional.empty();
    }
    String s = raw.strip().toLowerCase(Locale.ROOT);
    int scheme = s.indexOf("://");
    if (scheme >= 0) {
      s = s.substring(scheme + 3);
    }
    int end = s.length();
    for (char c : new char[] {'/', '?', '#', ':'}) {
      int i = s.indexOf(c);
      if (i >= 0 && i < end) {
        end = i;
      }
    }
    s = s.substring(0, end);
    int at = s.lastIndexOf('@');
    if (at >= 0) {
      s = s.substring(at + 1);
    }
    if (s.startsWith("www.")) {
      s = s.substring(4);
    }
    if (s.endsWith(".")) {
      s = s.substring(0, s.length() - 1);
    }
    try {
      s = IDN.toASCII(s, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return s.length() <= 253 && NAME.matcher(s).matches() ? Optional.of(s) : Optional.empty();
  }
}
