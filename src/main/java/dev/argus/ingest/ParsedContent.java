package dev.argus.ingest;

import io.vertx.core.json.JsonObject;

/**
 * What a format parser extracts from raw content: clean text, a title if the content names one, and the
 * fields a front matter block sets ({@code id}, {@code title}, {@code namespace}, {@code source}; the
 * remaining keys are metadata).
 */
public record ParsedContent(String title, String text, JsonObject fields, JsonObject metadata) {

  public static ParsedContent of(String title, String text) {
    return new ParsedContent(title, text, new JsonObject(), new JsonObject());
  }
}
