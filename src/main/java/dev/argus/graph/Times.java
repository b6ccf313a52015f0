package dev.argus.graph;

import java.time.Instant;
import java.time.OffsetDateTime;

/** Epoch milliseconds to ISO-8601 and back (null for absent). */
public final class Times {

  private Times() {
  }

  public static String iso(long ms) {
    return Instant.ofEpochMilli(ms).toString();
  }

  /** Parses ISO-8601 with an offset; null for null; IllegalArgumentException for anything else. */
  public static Long parse(String iso) {
    if (iso == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(iso).toInstant().toEpochMilli();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not an ISO-8601 time with offset: " + iso);
    }
  }
}
