package dev.argus.knowledge;

/** What an upsert did: created a document, replaced its content atomically, or nothing (same content hash). */
public record UpsertResult(String documentId, Outcome outcome, int chunks) {

  public enum Outcome { CREATED, REPLACED, UNCHANGED }
}
