package dev.argus.ingest;

import dev.argus.common.ApiException;

import java.util.Locale;

/**
 * Whether ingestion may replace a stored document of the same id and other content. {@code AUTO} (the default):
 * only when the caller named the id (the {@code id} field, or {@code id:} in a file's front matter); an id derived
 * from a file name or a title never silently replaces a document. {@code ALWAYS} ({@code replace=true}) replaces
 * whatever the id came from; {@code NEVER} ({@code replace=false}) never replaces. A document with the same content is
 * {@code unchanged} in every mode, and an id held by a document of another namespace is never taken over.
 */
public enum ReplaceMode {
  AUTO, ALWAYS, NEVER;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ReplaceMode fromWire(String s) {
    return s == null ? AUTO : valueOf(s.toUpperCase(Locale.ROOT));
  }

  /** The {@code replace} request parameter: absent = AUTO, {@code true} = ALWAYS, {@code false} = NEVER. */
  public static ReplaceMode fromParameter(String value) {
    if (value == null || value.isBlank()) {
      return AUTO;
    }
    return switch (value.strip()) {
      case "true" -> ALWAYS;
      case "false" -> NEVER;
      default -> throw ApiException.badRequest("invalid_parameter", "parameter 'replace' must be true or false");
    };
  }

  boolean allows(boolean explicitId) {
    return this == ALWAYS || (this == AUTO && explicitId);
  }
}
