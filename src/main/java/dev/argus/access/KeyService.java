package dev.argus.access;

import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Creating, listing and revoking keys, for the API ({@link AccessVerticle}) and the command line
 * ({@code argus keys}): validates the request, stores the key's hash, writes the audit log. The key text itself is
 * returned once and never stored or logged.
 */
public final class KeyService {

  private static final Logger LOG = Logger.getLogger(KeyService.class.getName());
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
  public static final int MAX_NAMESPACES = 100;
  public static final int MAX_LABEL_CHARS = 200;

  /** A created key and its text (shown once). */
  public record Created(ApiKey key, String text) {
    public JsonObject toJson() {
      return new JsonObject().put("key", key.toJson()).put("secret", text);
    }
  }

  /** What a caller asks for: {@code {role, namespaces?, rateLimit?, label?}}. */
  public record KeyRequest(Role role, List<String> namespaces, Integer rateLimit, String label) {

    public static KeyRequest fromJson(JsonObject body) {
      if (body == null) {
        throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
      }
      Object r = body.getValue("role");
      Role role = r instanceof String s ? Role.parse(s) : null;
      if (role == null) {
        throw ApiException.badRequest("invalid_field", "field 'role' must be one of " + Role.names());
      }
      List<String> namespaces = null;
      Object ns = body.getValue("namespaces");
      if (ns != null) {
        if (!(ns instanceof JsonArray a)) {
          throw ApiException.badRequest("invalid_field", "field 'namespaces' must be an array of namespace names");
        }
        List<String> list = new ArrayList<>();
        for (Object o : a) {
          list.add(o instanceof String s ? s : null);
        }
        namespaces = validNamespaces(list);
      }
      Object rate = body.getValue("rateLimit");
      if (rate != null && (!(rate instanceof Number n) || n.doubleValue() != n.intValue() || n.intValue() < 0
          || n.intValue() > 1_000_000)) {
        throw ApiException.badRequest("invalid_field", "field 'rateLimit' must be requests per minute, 0..1000000");
      }
      Object label = body.getValue("label");
      if (label != null && (!(label instanceof String s) || s.length() > MAX_LABEL_CHARS)) {
        throw ApiException.badRequest("invalid_field", "field 'label' must be text of at most " + MAX_LABEL_CHARS
            + " characters");
      }
      return new KeyRequest(role, namespaces, rate == null ? null : ((Number) rate).intValue(), (String) label);
    }

    public JsonObject toJson() {
      return new JsonObject().put("role", role.wireName())
          .put("namespaces", namespaces == null ? null : new JsonArray(namespaces)).put("rateLimit", rateLimit)
          .put("label", label);
    }
  }

  /** Checks a namespace list: 1..100 distinct names of the namespace form. */
  public static List<String> validNamespaces(List<String> names) {
    if (names.isEmpty() || names.size() > MAX_NAMESPACES) {
      throw ApiException.badRequest("invalid_field", "a key is limited to 1.." + MAX_NAMESPACES
          + " namespaces (omit 'namespaces' for all)");
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String n : names) {
      if (n == null || !NAMESPACE.matcher(n).matches()) {
        throw ApiException.badRequest("invalid_field", "'" + (n == null ? "null" : n.length() > 60
            ? n.substring(0, 60) + "..." : n) + "' is not a namespace name");
      }
      out.add(n);
    }
    return List.copyOf(out);
  }

  private final KeyStore keys;
  private final AuditStore audit;
  private final int maxKeys;

  public KeyService(KeyStore keys, AuditStore audit, int maxKeys) {
    this.keys = keys;
    this.audit = audit;
    this.maxKeys = maxKeys;
  }

  /** Creates a key; {@code actor}/{@code actorRole} are who asked (audit log). */
  public Future<Created> create(KeyRequest req, String actor, String actorRole) {
    return keys.countActive().compose(n -> {
      if (n >= maxKeys) {
        return Future.failedFuture(new ApiException(409, "too_many_keys", "there are " + n
            + " active keys, the configured maximum (auth.maxKeys); revoke some first"));
      }
      KeySecrets.Minted minted = KeySecrets.mint();
      ApiKey key = new ApiKey(minted.id(), req.role(), req.namespaces(), req.rateLimit(),
          req.label() == null ? "" : req.label(), System.currentTimeMillis(), actor, null);
      return keys.insert(key, minted.secretHash())
          .compose(v -> record(actor, actorRole, "keys.create", key.id(), req.toJson()))
          .map(v -> new Created(key, minted.key()));
    });
  }

  public Future<List<ApiKey>> list() {
    return keys.list();
  }

  /** Revokes a key: 404 {@code not_found} when it does not exist or was revoked already. */
  public Future<ApiKey> revoke(String id, String actor, String actorRole) {
    return keys.revoke(id, System.currentTimeMillis()).compose(done -> {
      if (!done) {
        return Future.failedFuture(ApiException.notFound("not_found", "no active key with id '"
            + (id.length() > 40 ? id.substring(0, 40) : id) + "'"));
      }
      return record(actor, actorRole, "keys.revoke", id, new JsonObject())
          .compose(v -> keys.find(id)).map(k -> k.orElseThrow());
    });
  }

  private Future<Void> record(String actor, String role, String action, String target, JsonObject detail) {
    return audit.append(new AuditEntry(0, System.currentTimeMillis(), actor, role, action, target, 0, detail))
        .onFailure(err -> LOG.log(Level.SEVERE, "audit log append failed for " + action, err)).mapEmpty();
  }
}
