package dev.argus.knowledge;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The content hash a store records for a document whose caller supplies none: SHA-256 over its parts (namespace,
 * title, source, text, metadata), each followed by a NUL byte. Both stores compute the same digest.
 */
public final class DocumentDigest {

  private DocumentDigest() {
  }

  /** The digest of the parts in order; a {@link JsonObject} part counts as its encoding, {@code null} as "null". */
  public static String of(Object... parts) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (Object part : parts) {
        md.update(String.valueOf(part instanceof JsonObject json ? json.encode() : part).getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
