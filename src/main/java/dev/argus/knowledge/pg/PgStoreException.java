package dev.argus.knowledge.pg;

/** A PostgreSQL store operation failed; the message says which document or operation and why. */
public final class PgStoreException extends RuntimeException {
  public PgStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
