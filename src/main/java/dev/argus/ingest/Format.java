package dev.argus.ingest;

import dev.argus.common.ApiException;

import java.util.Locale;
import java.util.Optional;

/** The formats a single document's content can have. JSONL is a batch container, see {@link JsonlParser}. */
public enum Format {
  TEXT("text"), MARKDOWN("markdown"), HTML("html");

  private final String wireName;

  Format(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** {@code "text"|"markdown"|"html"} (null means text); 400 otherwise. */
  public static Format fromWire(String name) {
    if (name == null) {
      return TEXT;
    }
    for (Format f : values()) {
      if (f.wireName.equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw ApiException.badRequest("invalid_field", "field 'format' must be one of text, markdown, html; got '" + name + "'");
  }

  /** The format of a file by its extension; empty for {@code .jsonl} and unsupported extensions. */
  public static Optional<Format> ofFileName(String fileName) {
    return switch (extension(fileName)) {
      case "txt", "text" -> Optional.of(TEXT);
      case "md", "markdown" -> Optional.of(MARKDOWN);
      case "html", "htm" -> Optional.of(HTML);
      default -> Optional.empty();
    };
  }

  public static boolean isJsonl(String fileName) {
    String ext = extension(fileName);
    return ext.equals("jsonl") || ext.equals("ndjson");
  }

  /** True for every file extension ingestion accepts: {@code .txt .md .markdown .html .htm .jsonl}. */
  public static boolean isSupportedFile(String fileName) {
    return ofFileName(fileName).isPresent() || isJsonl(fileName);
  }

  static String extension(String fileName) {
    if (fileName == null) {
      return "";
    }
    int dot = fileName.lastIndexOf('.');
    return dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
  }
}
