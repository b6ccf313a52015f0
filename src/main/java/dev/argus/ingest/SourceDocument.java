package dev.argus.ingest;

import dev.argus.common.ApiException;
import dev.argus.http.Requests;
import io.vertx.core.json.JsonObject;

/**
 * One document as submitted, before parsing: raw content in a {@link Format}, plus the fields the submitter
 * set explicitly (each may be null and is then taken from the content or derived). {@code origin} names where
 * it came from (a file name, "document 3", "line 7") for error messages and for deriving an id from a file name.
 */
public record SourceDocument(String id, String title, String content, Format format, String source, String namespace,
                             JsonObject metadata, String origin, boolean idFromOrigin) {

  public static final int MAX_ID_CHARS = 200;

  /** A file's content; its id, unless its front matter names one, derives from the file name. */
  public static SourceDocument ofFile(String fileName, Format format, String content, String namespace) {
    return new SourceDocument(null, null, content, format, null, namespace, null, fileName, true);
  }

  /** A label for error messages: the id when known, otherwise the origin. */
  public String label() {
    return id != null ? id : origin;
  }

  /** Content size in UTF-16 characters (used to group documents and to report sizes). */
  public int size() {
    return content == null ? 0 : content.length();
  }

  /**
   * Validates one document of the API ({@code {id?, title, text, source?, namespace?, metadata?, format?}};
   * {@code _id} is accepted for {@code id}, as BEIR corpora write it).
   * {@code title} may be left out for Markdown and HTML, whose content names it. Every problem is a 400 whose
   * message starts with {@code where}.
   */
  public static SourceDocument fromApi(JsonObject json, String defaultNamespace, String where, int maxChars) {
    try {
      Requests.rejectNul(json);
      Format format = Format.fromWire(string(json, "format", 20));
      String id = string(json, "id", MAX_ID_CHARS);
      if (id == null) {
        id = string(json, "_id", MAX_ID_CHARS); // BEIR corpora name it _id
      }
      if (id != null) {
        DocumentRules.id(id);
      }
      String title = string(json, "title", DocumentRules.MAX_TITLE_CHARS);
      if (title != null && title.isBlank()) {
        throw ApiException.badRequest("empty_field", "field 'title' must not be empty");
      }
      if (title == null && format == Format.TEXT) {
        throw ApiException.badRequest("missing_field", "field 'title' is required");
      }
      Object text = json.getValue("text");
      if (text == null) {
        throw ApiException.badRequest("missing_field", "field 'text' is required");
      }
      if (!(text instanceof String content)) {
        throw ApiException.badRequest("invalid_field", "field 'text' must be a string");
      }
      if (content.isBlank()) {
        throw ApiException.badRequest("empty_text", "field 'text' must not be empty");
      }
      if (content.length() > maxChars) {
        throw ApiException.tooLarge("field 'text' is longer than " + maxChars + " characters");
      }
      String source = string(json, "source", DocumentRules.MAX_SOURCE_CHARS);
      String namespace = string(json, "namespace", 64);
      namespace = DocumentRules.namespace(namespace == null ? defaultNamespace : namespace);
      Object meta = json.getValue("metadata");
      if (meta != null && !(meta instanceof JsonObject)) {
        throw ApiException.badRequest("invalid_field", "field 'metadata' must be a JSON object");
      }
      JsonObject metadata = DocumentRules.metadata((JsonObject) meta);
      return new SourceDocument(id, title, content, format, source, namespace, metadata, where, false);
    } catch (ApiException e) {
      throw new ApiException(e.status(), e.code(), where + ": " + e.getMessage());
    }
  }

  private static String string(JsonObject json, String field, int maxChars) {
    Object v = json.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be a string");
    }
    if (s.length() > maxChars) {
      throw ApiException.badRequest("field_too_long", "field '" + field + "' is longer than " + maxChars + " characters");
    }
    return s;
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("title", title).put("content", content).put("format", format.wireName())
        .put("source", source).put("namespace", namespace).put("metadata", metadata).put("origin", origin)
        .put("idFromOrigin", idFromOrigin);
  }

  public static SourceDocument fromJson(JsonObject json) {
    return new SourceDocument(json.getString("id"), json.getString("title"), json.getString("content"),
        Format.fromWire(json.getString("format")), json.getString("source"), json.getString("namespace"),
        json.getJsonObject("metadata"), json.getString("origin"), json.getBoolean("idFromOrigin", false));
  }
}
