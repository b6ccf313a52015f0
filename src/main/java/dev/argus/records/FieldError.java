package dev.argus.records;

/** A wire field that fails validation: its dotted path and the reason. Becomes a {@link LineError} with the line. */
final class FieldError extends RuntimeException {

  private final String field;

  FieldError(String field, String reason) {
    super(reason, null, false, false);
    this.field = field;
  }

  String field() {
    return field;
  }
}
