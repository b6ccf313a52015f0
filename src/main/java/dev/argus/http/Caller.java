package dev.argus.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Who sent a request, as the {@link Gate} established it: a key id (or {@code local} for a loopback client served
 * without a key in protected mode's default, or {@code jwt:<subject>}), its role name, the permissions the role
 * holds and the namespaces the key is limited to ({@code null}: every namespace). Routes read it with {@link #of}
 * to pass the namespace limit on (e.g. into a search).
 */
public record Caller(String id, String role, Set<Permission> permissions, List<String> namespaces,
                     int ratePerMinute) {

  /** The routing-context key under which the caller is kept. */
  public static final String CONTEXT_KEY = "argus.caller";

  /** A loopback client served without a key (protected mode off): everything, every namespace, no rate limit. */
  public static final Caller LOCAL = new Caller("local", "admin", EnumSet.allOf(Permission.class), null, 0);

  public Caller {
    permissions = permissions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(permissions));
    namespaces = namespaces == null ? null : List.copyOf(namespaces);
  }

  /** The caller of this request ({@link #LOCAL} when no gate ran, as in tests of single route groups). */
  public static Caller of(RoutingContext ctx) {
    Caller c = ctx.get(CONTEXT_KEY);
    return c == null ? LOCAL : c;
  }

  public boolean may(Permission p) {
    return p == Permission.PUBLIC || permissions.contains(p);
  }

  /** True when the key is limited to some namespaces. */
  public boolean limited() {
    return namespaces != null;
  }

  /** True when the caller may see data of {@code namespace}. */
  public boolean mayRead(String namespace) {
    return namespaces == null || namespaces.contains(namespace);
  }

  /**
   * The namespace a request of this caller works in: {@code requested} when the caller may read it; for a limited key
   * that names none, its only namespace. 403 {@code namespace_forbidden} for a namespace outside the limit, 400
   * {@code namespace_required} when a key limited to several namespaces names none.
   */
  public String namespaceFor(String requested) {
    if (namespaces == null) {
      return requested;
    }
    if (requested != null) {
      if (!namespaces.contains(requested)) {
        throw new dev.argus.common.ApiException(403, "namespace_forbidden", "this key may not read namespace '"
            + (requested.length() > 100 ? requested.substring(0, 100) : requested) + "'");
      }
      return requested;
    }
    if (namespaces.size() == 1) {
      return namespaces.get(0);
    }
    throw dev.argus.common.ApiException.badRequest("namespace_required", "this key is limited to namespaces "
        + namespaces + ": name one in 'namespace'");
  }

  /**
   * A run this caller may see, else 404 {@code unknown_run} as if it did not exist: a namespace-limited key sees only
   * the runs asked in its namespaces (a run without one, such as a decision's, is not among them). {@code run} is the
   * run's JSON ({@code input.namespace}).
   */
  public JsonObject visibleRun(String runId, JsonObject run) {
    JsonObject input = run.getJsonObject("input");
    String namespace = input == null ? null : input.getString("namespace");
    if (limited() && (namespace == null || !mayRead(namespace))) {
      throw dev.argus.common.ApiException.notFound("unknown_run", "no run '" + runId + "'");
    }
    return run;
  }

  /** The namespace limit as JSON ({@code null} when unlimited), e.g. for a search request's {@code allowedNamespaces}. */
  public JsonArray namespacesJson() {
    return namespaces == null ? null : new JsonArray(List.copyOf(namespaces));
  }

  public JsonObject toJson() {
    JsonArray perms = new JsonArray();
    permissions.stream().sorted().forEach(p -> perms.add(p.wireName()));
    return new JsonObject().put("id", id).put("role", role).put("permissions", perms)
        .put("namespaces", namespacesJson()).put("ratePerMinute", ratePerMinute);
  }
}
