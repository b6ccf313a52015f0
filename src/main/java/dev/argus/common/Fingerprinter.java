package dev.argus.common;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * Keyed fingerprints of sensitive identifiers (tax ids, bank accounts, card numbers): Argus stores and links these,
 * never the raw values. A fingerprint is {@code fp_} + the first 128 bits of HMAC-SHA256(key, kind + ":" + normalized
 * value), base64url without padding; the same value under the same key always gives the same fingerprint, so records
 * and documents that carry one identifier meet in the graph, while the raw value cannot be recovered without the key.
 * Thread-safe.
 */
public final class Fingerprinter {

  private static final String ALGORITHM = "HmacSHA256";

  private final SecretKeySpec key;
  /** One initialized MAC per thread: {@code Mac.getInstance} and {@code init} cost more than the HMAC itself. */
  private final ThreadLocal<Mac> macs;

  public Fingerprinter(byte[] key) {
    Objects.requireNonNull(key, "key");
    if (key.length < 16) {
      throw new IllegalArgumentException("a fingerprint key needs at least 16 bytes");
    }
    this.key = new SecretKeySpec(key.clone(), ALGORITHM);
    this.macs = ThreadLocal.withInitial(this::newMac);
  }

  private Mac newMac() {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available", e);
    }
  }

  /** The fingerprint of a bank account number (IBAN or local account): spaces and separators do not matter. */
  public String bankAccount(String raw) {
    return of("bank_account", alphanumericUpper(raw));
  }

  /** The fingerprint of a tax id: spaces and separators do not matter. */
  public String taxId(String raw) {
    return of("tax_id", alphanumericUpper(raw));
  }

  /** The fingerprint of a payment card from its BIN and last four digits. */
  public String card(String bin, String last4) {
    return of("card", alphanumericUpper(bin) + "|" + alphanumericUpper(last4));
  }

  /** The fingerprint of an already normalized value of the given kind. */
  public String of(String kind, String normalized) {
    byte[] digest = macs.get().doFinal((kind + ":" + normalized).getBytes(StandardCharsets.UTF_8));
    byte[] head = new byte[16];
    System.arraycopy(digest, 0, head, 0, head.length);
    return "fp_" + Base64.getUrlEncoder().withoutPadding().encodeToString(head);
  }

  /** The last four letters or digits of an identifier (what may be shown), or "" when it has fewer. */
  public static String last4(String raw) {
    String s = alphanumericUpper(raw);
    return s.length() < 4 ? "" : s.substring(s.length() - 4);
  }

  /** Letters and digits only, upper case: the normal form of account numbers and tax ids. */
  public static String alphanumericUpper(String raw) {
    if (raw == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder(raw.length());
    raw.codePoints().filter(Character::isLetterOrDigit).forEach(sb::appendCodePoint);
    return sb.toString().toUpperCase(Locale.ROOT);
  }
}
