package dev.argus.access;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;

/**
 * A stored API key without its secret: id, role, the namespaces it is limited to ({@code null}: all), its own rate
 * limit per minute ({@code null}: the role's), a label, who created it and when, and when it was revoked.
 */
public record ApiKey(String id, Role role, List<String> namespaces, Integer rateLimit, String label,
                     long createdAt, String createdBy, Long revokedAt) {

  public ApiKey {
    namespaces = namespaces == null ? null : List.copyOf(namespaces);
    label = label == null ? "" : label;
  }

  public boolean active() {
    return revokedAt == null;
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("role", role.wireName())
        .put("namespaces", namespaces == null ? null : new JsonArray(namespaces))
        .put("rateLimit", rateLimit).put("label", label)
        .put("createdAt", Instant.ofEpochMilli(createdAt).toString()).put("createdBy", createdBy)
        .put("revokedAt", revokedAt == null ? null : Instant.ofEpochMilli(revokedAt).toString())
        .put("active", active());
  }
}
