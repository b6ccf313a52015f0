package dev.argus.knowledge.pg;

import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

/** Values as the PostgreSQL store writes and reads them. */
final class PgValues {

  private PgValues() {
  }

  /** PostgreSQL text cannot hold NUL characters; they carry no meaning in documents or queries. */
  static String clean(String s) {
    return s == null ? null : s.indexOf('\0') < 0 ? s : s.replace("\0", "");
  }

  /** A jsonb column as an object (an empty one when NULL). */
  static JsonObject json(Row r, String column) {
    Object v = r.getValue(column);
    return v instanceof JsonObject o ? o : new JsonObject();
  }
}
