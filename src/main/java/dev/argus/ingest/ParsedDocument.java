package dev.argus.ingest;

import io.vertx.core.json.JsonObject;

/**
 * A document after parsing: clean text and every field resolved (id, namespace and title are never null).
 * {@code explicitId}: the submitter named the id (field {@code id} or front matter), rather than it being derived
 * from a file name or title; see {@link ReplaceMode}.
 */
public record ParsedDocument(String id, String namespace, String title, String source, String text,
                             JsonObject metadata, boolean explicitId) {

  public ParsedDocument(String id, String namespace, String title, String source, String text, JsonObject metadata) {
    this(id, namespace, title, source, text, metadata, true);
  }
}
