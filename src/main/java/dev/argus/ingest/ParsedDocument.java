package dev.argus.ingest;

import io.vertx.core.json.JsonObject;

/** A document after parsing: clean text and every field resolved (id, namespace and title are never null). */
public record ParsedDocument(String id, String namespace, String title, String source, String text,
                             JsonObject metadata) {
}
