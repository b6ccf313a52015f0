package dev.argus.citations;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonObject;

/**
 * What a citation is said to support: a relation between {@code from} and {@code to} (graph entity ids), optionally
 * of type {@code relation} (e.g. {@code LINKED_ACCOUNTS}). For an entity citation, {@code from} defaults to the cited
 * entity.
 */
public record Claim(String from, String to, String relation) {

  static final int MAX_ID_CHARS = 400;

  public static Claim fromJson(JsonObject json, String where) {
    String from = id(json, "from", where, false);
    String to = id(json, "to", where, true);
    Object rel = json.getValue("relation");
    if (rel != null && !(rel instanceof String s && s.matches("[A-Z][A-Z0-9_]{0,63}"))) {
      throw ApiException.badRequest("invalid_claim", where + ".relation must be an upper-case relation name");
    }
    return new Claim(from, to, (String) rel);
  }

  public Claim withFrom(String defaultFrom) {
    return from == null ? new Claim(defaultFrom, to, relation) : this;
  }

  public JsonObject toJson() {
    JsonObject o = new JsonObject().put("to", to);
    if (from != null) {
      o.put("from", from);
    }
    if (relation != null) {
      o.put("relation", relation);
    }
    return o;
  }

  private static String id(JsonObject json, String key, String where, boolean required) {
    Object v = json.getValue(key);
    if (v == null && !required) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank() || s.length() > MAX_ID_CHARS) {
      throw ApiException.badRequest("invalid_claim", where + "." + key + " must be an entity id of 1-"
          + MAX_ID_CHARS + " characters");
    }
    return s;
  }
}
