package dev.argus.ingest;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonObject;

/**
 * Turns a {@link SourceDocument} into a {@link ParsedDocument}: parses its content by format, then resolves
 * every field. Explicit id, title and source win over front matter, front matter over what the content or origin
 * implies; for the namespace, the front matter wins over the submitted one (which then acts as the default):
 * the id falls back to the file name (uploads, CLI; prefixed with {@code <namespace>:} outside the default
 * namespace, so that files of the same name in two namespaces never share an id) or to a hash of namespace and title; the title to the
 * content's own title, then to the id. CPU-bound: call it off the event loop.
 */
public final class DocumentParsers {

  private DocumentParsers() {
  }

  public static ParsedDocument parse(SourceDocument src, String defaultNamespace, int maxDocumentChars) {
    ParsedContent content = switch (src.format()) {
      case TEXT -> PlainTextParser.parse(src.content());
      case MARKDOWN -> MarkdownParser.parse(src.content());
      case HTML -> HtmlParser.parse(src.content());
    };
    String text = content.text();
    if (text == null || text.isBlank()) {
      throw ApiException.badRequest("empty_text", "the document has no text after parsing");
    }
    if (text.length() > maxDocumentChars) {
      throw ApiException.tooLarge("the document's text is longer than " + maxDocumentChars + " characters");
    }
    JsonObject fields = content.fields();
    String namespace = DocumentRules.namespace(first(blankToNull(fields.getString("namespace")), src.namespace(), defaultNamespace));
    String title = first(src.title(), blankToNull(fields.getString("title")), blankToNull(content.title()));
    String id = first(src.id(), blankToNull(fields.getString("id")));
    boolean explicitId = id != null;
    if (id == null) {
      if (src.idFromOrigin() && src.origin() != null) {
        id = DocumentRules.idFromFileName(namespace, src.origin());
      } else if (title != null) {
        id = DocumentRules.idFromTitle(namespace, title);
      } else {
        id = "doc-" + ContentHash.sha256Hex(namespace + "\u0000" + text).substring(0, 20);
      }
    }
    DocumentRules.id(id);
    if (title == null) {
      title = !explicitId && src.idFromOrigin() && src.origin() != null ? DocumentRules.idFromFileName(src.origin()) : id;
    }
    if (title.length() > DocumentRules.MAX_TITLE_CHARS) {
      title = title.substring(0, DocumentRules.MAX_TITLE_CHARS);
    }
    JsonObject metadata = content.metadata().copy();
    if (src.metadata() != null) {
      metadata.mergeIn(src.metadata());
    }
    metadata = DocumentRules.metadata(metadata);
    String source = first(src.source(), blankToNull(fields.getString("source")), src.idFromOrigin() ? src.origin() : null);
    return new ParsedDocument(id, namespace, title.strip(), source, text, metadata, explicitId);
  }

  @SafeVarargs
  private static <T> T first(T... values) {
    for (T v : values) {
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
