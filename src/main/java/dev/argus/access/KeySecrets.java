package dev.argus.access;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The form of an API key, {@code argus_<id>_<secret>}: a 12-character id (public: it names the key in lists, logs and
 * the audit log) and a secret of 256 random bits (base64url, 43 characters). Only the secret's SHA-256 is stored;
 * a presented key is found by its id and its secret's hash compared in constant time.
 */
public final class KeySecrets {

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern FORM = Pattern.compile("argus_([a-z0-9]{12})_([A-Za-z0-9_-]{43})");
  private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

  /** A presented key split into its parts. */
  public record Parsed(String id, String secret) {
  }

  /** A new key: its id and the whole key text (shown once, never stored). */
  public record Minted(String id, String key, String secretHash) {
  }

  private KeySecrets() {
  }

  public static Minted mint() {
    StringBuilder id = new StringBuilder(12);
    for (int i = 0; i < 12; i++) {
      id.append(ID_CHARS.charAt(RANDOM.nextInt(ID_CHARS.length())));
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String s = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    return new Minted(id.toString(), "argus_" + id + "_" + s, hash(s));
  }

  /** The parts of a key in the right form, or empty. */
  public static Optional<Parsed> parse(String key) {
    if (key == null || key.length() > 200) {
      return Optional.empty();
    }
    var m = FORM.matcher(key.strip());
    return m.matches() ? Optional.of(new Parsed(m.group(1), m.group(2))) : Optional.empty();
  }

  /** Hex SHA-256 of a secret. */
  public static String hash(String secret) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** True when {@code secret} hashes to {@code storedHash}; compares in constant time. */
  public static boolean matches(String secret, String storedHash) {
    return MessageDigest.isEqual(hash(secret).getBytes(StandardCharsets.US_ASCII),
        storedHash.getBytes(StandardCharsets.US_ASCII));
  }
}
