package dev.argus.ingest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.TreeSet;

/** SHA-256 over what makes a document's content: namespace, title, text and metadata (keys in sorted order). */
public final class ContentHash {

  private ContentHash() {
  }

  public static String of(ParsedDocument doc) {
    StringBuilder sb = new StringBuilder();
    for (String field : new String[] {doc.namespace(), doc.title(), doc.text()}) {
      sb.append(field.length()).append(':').append(field); // length-prefixed: no two field splits hash alike
    }
    appendCanonical(sb, doc.metadata());
    return sha256Hex(sb.toString());
  }

  public static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /** JSON with object keys sorted, so that equal metadata hashes equally whatever the key order. */
  static void appendCanonical(StringBuilder sb, Object value) {
    if (value instanceof JsonObject obj) {
      sb.append('{');
      boolean first = true;
      for (String key : new TreeSet<>(obj.fieldNames())) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        appendScalar(sb, key);
        sb.append(':');
        appendCanonical(sb, obj.getValue(key));
      }
      sb.append('}');
    } else if (value instanceof JsonArray arr) {
      sb.append('[');
      for (int i = 0; i < arr.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        appendCanonical(sb, arr.getValue(i));
      }
      sb.append(']');
    } else if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
      sb.append(n.longValue());
    } else {
      appendScalar(sb, value);
    }
  }

  private static void appendScalar(StringBuilder sb, Object value) {
    String encoded = new JsonArray().add(value).encode();
    sb.append(encoded, 1, encoded.length() - 1);
  }
}
