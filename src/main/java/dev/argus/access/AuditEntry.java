package dev.argus.access;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * One line of the append-only audit log: when, who (key id, {@code jwt:<subject>}, {@code local}, {@code cli}) with
 * which role, what ({@code keys.create}, {@code keys.revoke}, {@code http POST /api/...}), on what, the outcome (an
 * HTTP status; 0 outside HTTP) and details. {@code seq} is assigned by the store (0 before).
 * <pre>{@code {seq, at, actor, role, action, target, outcome, detail}}</pre>
 */
public record AuditEntry(long seq, long at, String actor, String role, String action, String target, int outcome,
                         JsonObject detail) {

  public static final int MAX_FIELD_CHARS = 500;

  public AuditEntry {
    actor = clip(actor);
    role = clip(role);
    action = clip(action);
    target = clip(target == null ? "" : target);
    detail = detail == null ? new JsonObject() : detail;
  }

  private static String clip(String s) {
    if (s == null) {
      return "";
    }
    return s.length() > MAX_FIELD_CHARS ? s.substring(0, MAX_FIELD_CHARS) : s;
  }

  public JsonObject toJson() {
    return new JsonObject().put("seq", seq).put("at", Instant.ofEpochMilli(at).toString()).put("actor", actor)
        .put("role", role).put("action", action).put("target", target).put("outcome", outcome).put("detail", detail);
  }

  /** The body of {@code argus.audit.append}: {@code {actor, role, action, target?, outcome?, detail?}}. */
  public static AuditEntry fromJson(JsonObject json) {
    return new AuditEntry(0, System.currentTimeMillis(), json.getString("actor", "unknown"),
        json.getString("role", ""), json.getString("action", "unknown"), json.getString("target", ""),
        json.getInteger("outcome", 0), json.getJsonObject("detail"));
  }
}
