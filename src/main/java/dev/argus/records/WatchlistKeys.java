package dev.argus.records;

import dev.argus.common.Fingerprinter;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The normal forms identifiers are matched in against watchlist entries: {@code type:value} keys with e-mails and
 * domains in lower case ({@code www.} dropped), phones as their digits, IPs and ranges in canonical form, bank accounts
 * as fingerprints, names as lower-case letters and digits separated by single spaces (accents removed).
 */
public final class WatchlistKeys {

  public static final String NAME = "name";
  public static final String EMAIL = "email";
  public static final String PHONE = "phone";
  public static final String IP = "ip";
  public static final String IP_RANGE = "ip_range";
  public static final String BANK_ACCOUNT = "bank_account";
  public static final String DOMAIN = "domain";

  private WatchlistKeys() {
  }

  public static String key(String type, String normalized) {
    return type + ":" + normalized;
  }

  public static String email(String raw) {
    return raw.strip().toLowerCase(Locale.ROOT);
  }

  /** The domain of an e-mail address, or null. */
  public static String emailDomain(String email) {
    int at = email == null ? -1 : email.lastIndexOf('@');
    return at < 0 ? null : domain(email.substring(at + 1));
  }

  public static String phone(String raw) {
    StringBuilder sb = new StringBuilder();
    raw.chars().filter(Character::isDigit).forEach(c -> sb.append((char) c));
    return sb.toString();
  }

  /** A domain or a website URL reduced to its host: lower case, no scheme, path, port, trailing dot or {@code www.}. */
  public static String domain(String raw) {
    String s = raw.strip().toLowerCase(Locale.ROOT);
    int scheme = s.indexOf("://");
    if (scheme >= 0) {
      s = s.substring(scheme + 3);
    }
    for (char end : new char[] {'/', '?', '#', ':'}) {
      int i = s.indexOf(end);
      if (i >= 0) {
        s = s.substring(0, i);
      }
    }
    if (s.endsWith(".")) {
      s = s.substring(0, s.length() - 1);
    }
    return s.startsWith("www.") ? s.substring(4) : s;
  }

  /** Canonical text of an IP address (or of a CIDR range's network), or the input when it is not one. */
  public static String ip(String raw) {
    IPAddress ip = new IPAddressString(raw.strip()).getAddress();
    if (ip == null) {
      return raw.strip();
    }
    return ip.isPrefixed() ? ip.toPrefixBlock().toCanonicalString() : ip.toCanonicalString();
  }

  public static String name(String raw) {
    String s = Normalizer.normalize(raw, Normalizer.Form.NFKD).replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
    return s.replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }

  /** The match key of a watchlist entry's value of {@code type}; bank accounts are fingerprinted. */
  public static String ofEntry(String type, String value, Fingerprinter fp) {
    return key(type, switch (type) {
      case EMAIL -> email(value);
      case PHONE -> phone(value);
      case IP, IP_RANGE -> ip(value);
      case DOMAIN -> domain(value);
      case BANK_ACCOUNT -> fp.bankAccount(value);
      default -> name(value);
    });
  }
}
