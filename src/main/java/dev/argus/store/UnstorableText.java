package dev.argus.store;

import io.vertx.pgclient.PgException;

/**
 * Whether a failure is PostgreSQL refusing text it cannot hold — a NUL character (SQLSTATE 22021,
 * {@code invalid byte sequence for encoding "UTF8": 0x00}) or a character its encoding lacks (22P05) — in a value a
 * caller sent: the caller's error (400), not ours. Inputs are checked for NUL where they are read; this is the net
 * for a field a check missed (found by scripts/fuzz-bridge.py: a decisions filter with a NUL answered 500).
 */
public final class UnstorableText {

  private UnstorableText() {
  }

  public static boolean is(Throwable err) {
    for (Throwable e = err; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (e instanceof PgException pg && ("22021".equals(pg.getSqlState()) || "22P05".equals(pg.getSqlState()))) {
        return true;
      }
    }
    return false;
  }
}
