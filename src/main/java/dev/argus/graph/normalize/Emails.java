package dev.argus.graph.normalize;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * E-mail canonicalization, so that one mailbox written several ways is one graph node: case-insensitive, the
 * plus-tag ({@code name+shop@...}) dropped for every provider (sub-addressing delivers to the same mailbox at all the
 * large providers), and the provider's dot rule: Gmail ignores dots in the local part, and {@code googlemail.com} is
 * {@code gmail.com}. Thread-safe.
 */
public final class Emails {

  private static final Pattern SHAPE = Pattern.compile("[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?\\.[a-z]{2,63}");
  private static final Set<String> DOTLESS = Set.of("gmail.com");

  private Emails() {
  }

  /** The canonical form of {@code raw}, or empty when it is not an e-mail address. */
  public static Optional<String> canonical(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String s = raw.strip().toLowerCase(Locale.ROOT);
    if (s.length() > 254 || !SHAPE.matcher(s).matches()) {
      return Optional.empty();
    }
    int at = s.lastIndexOf('@');
    String local = s.substring(0, at);
    String domain = s.substring(at + 1);
    if (domain.equals("googlemail.com")) {
      domain = "gmail.com";
    }
    int plus = local.indexOf('+');
    if (plus > 0) {
      local = local.substring(0, plus);
    }
    if (DOTLESS.contains(domain)) {
      local = local.replace(".", "");
    }
    if (local.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(local + "@" + domain);
  }

  /** The domain of a canonical address. */
  public static String domain(String canonical) {
    return canonical.substring(canonical.lastIndexOf('@') + 1);
  }
}
