package dev.argus.ingest;

import dev.argus.common.ApiException;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.MetadataCondition;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rules every ingested document obeys, whatever its source: namespace names, document ids and metadata
 * values (string, number, boolean or a list of strings; dates are ISO strings). Violations are 400s whose
 * message names the offending value.
 */
public final class DocumentRules {

  /** Namespace names: lower-case letters, digits, {@code _} and {@code -}, starting with a letter or digit. */
  public static final Pattern NAMESPACE = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");
  /** Document ids: safe in a URL path segment. */
  public static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}");
  public static final int MAX_TITLE_CHARS = 1000;
  public static final int MAX_SOURCE_CHARS = 2000;
  public static final int MAX_METADATA_KEYS = 64;
  public static final int MAX_METADATA_STRING = 2000;

  private DocumentRules() {
  }

  public static String namespace(String namespace) {
    if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
      throw ApiException.badRequest("invalid_namespace", "invalid namespace '" + namespace
          + "': use 1-64 lower-case letters, digits, '_' or '-', starting with a letter or digit");
    }
    return namespace;
  }

  public static String id(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw ApiException.badRequest("invalid_id", "invalid document id '" + id
          + "': use 1-200 letters, digits, '.', '_', ':', '@' or '-', starting with a letter or digit");
    }
    return id;
  }

  /**
   * A deterministic id from a file name and the namespace it goes to: {@link #idFromFileName(String)} in the default
   * namespace, {@code <namespace>:<that>} in any other, so that ids derived from file names never collide across
   * namespaces.
   */
  public static String idFromFileName(String namespace, String fileName) {
    String slug = idFromFileName(fileName);
    if (namespace == null || namespace.equals(Document.DEFAULT_NAMESPACE)) {
      return slug;
    }
    int room = 200 - namespace.length() - 1;
    return namespace + ":" + (slug.length() > room ? slug.substring(0, room) : slug);
  }

  /** A deterministic id from a file name: its base name, lower-cased, other characters replaced by '-'. */
  public static String idFromFileName(String fileName) {
    String base = fileName.replace('\\', '/');
    base = base.substring(base.lastIndexOf('/') + 1);
    int dot = base.lastIndexOf('.');
    if (dot > 0) {
      base = base.substring(0, dot);
    }
    String slug = base.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._@-]+", "-").replaceAll("^[^a-z0-9]+", "")
        .replaceAll("-+$", "");
    if (slug.length() > 200) {
      slug = slug.substring(0, 200);
    }
    return slug.isEmpty() ? "doc-" + ContentHash.sha256Hex(fileName).substring(0, 16) : slug;
  }

  /** A deterministic id from the namespace and title, for documents that come without one. */
  public static String idFromTitle(String namespace, String title) {
    return "doc-" + ContentHash.sha256Hex(namespace + "\u0000" + title).substring(0, 20);
  }

  /**
   * Checks a file's content before parsing: not blank, and no NUL character (a binary file, or one no store would
   * accept); returns it.
   */
  public static String fileContent(String name, String content) {
    if (content.isBlank()) {
      throw ApiException.badRequest("empty_text", "file '" + name + "' is empty");
    }
    if (content.indexOf(0) >= 0) {
      throw ApiException.badRequest("invalid_character", "file '" + name
          + "' holds NUL characters (is it a binary file?)");
    }
    return content;
  }

  /** Checks metadata keys and values; returns a copy. */
  public static JsonObject metadata(JsonObject metadata) {
    if (metadata == null) {
      return new JsonObject();
    }
    if (metadata.size() > MAX_METADATA_KEYS) {
      throw ApiException.badRequest("invalid_metadata", "metadata has more than " + MAX_METADATA_KEYS + " keys");
    }
    JsonObject out = new JsonObject();
    for (String key : metadata.fieldNames()) {
      if (!MetadataCondition.KEY.matcher(key).matches()) {
        throw ApiException.badRequest("invalid_metadata", "invalid metadata key '" + key
            + "': use letters, digits, '_', '.' or '-', starting with a letter or '_'");
      }
      Object value = metadata.getValue(key);
      if (value instanceof String s) {
        checkString(key, s);
      } else if (value instanceof Number n) {
        if (Double.isNaN(n.doubleValue()) || Double.isInfinite(n.doubleValue())) {
          throw ApiException.badRequest("invalid_metadata", "metadata '" + key + "' must be a finite number");
        }
      } else if (value instanceof JsonArray list) {
        for (Object item : list) {
          if (!(item instanceof String s)) {
            throw ApiException.badRequest("invalid_metadata", "metadata '" + key + "' must be a list of strings");
          }
          checkString(key, s);
        }
        value = list.copy();
      } else if (!(value instanceof Boolean)) {
        throw ApiException.badRequest("invalid_metadata", "metadata '" + key
            + "' must be a string, number, boolean or list of strings");
      }
      out.put(key, value);
    }
    return out;
  }

  private static void checkString(String key, String s) {
    if (s.length() > MAX_METADATA_STRING) {
      throw ApiException.badRequest("invalid_metadata", "metadata '" + key + "' is longer than "
          + MAX_METADATA_STRING + " characters");
    }
  }
}
