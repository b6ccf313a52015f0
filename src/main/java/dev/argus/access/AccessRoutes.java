package dev.argus.access;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import dev.argus.http.Permission;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Key administration and the audit log (admin only), and {@code GET /api/auth/whoami} (any caller: its key id, role,
 * permissions and namespace limit, so that the web UI can check a key it was given):
 * <ul>
 *   <li>{@code POST /api/keys} {@code {role, namespaces?, rateLimit?, label?}} → 201 {@code {key, secret}} (the
 *       secret is shown this once);</li>
 *   <li>{@code GET /api/keys} → {@code {keys: [...]}}; {@code DELETE /api/keys/:id} → the revoked key;</li>
 *   <li>{@code GET /api/audit?before=&limit=} → {@code {entries: [...], next?}}, newest first.</li>
 * </ul>
 */
public final class AccessRoutes implements RouteGroup {

  private final Bus bus;

  public AccessRoutes(Bus bus) {
    this.bus = bus;
  }

  @Override
  public void mount(Router router) {
    Permission.require(router.post("/api/keys"), Permission.ADMIN).handler(this::create);
    Permission.require(router.get("/api/keys"), Permission.ADMIN)
        .respond(ctx -> bus.request(Addresses.ACCESS_KEYS_LIST, new JsonObject()));
    Permission.require(router.delete("/api/keys/:id"), Permission.ADMIN).respond(ctx -> {
      Caller c = Caller.of(ctx);
      return bus.request(Addresses.ACCESS_KEYS_REVOKE, new JsonObject().put("id", ctx.pathParam("id"))
          .put("actor", c.id()).put("actorRole", c.role()));
    });
    Permission.require(router.get("/api/audit"), Permission.ADMIN).respond(this::audit);
    Permission.require(router.get("/api/auth/whoami"), Permission.READ)
        .respond(ctx -> Future.succeededFuture(Caller.of(ctx).toJson()));
  }

  private void create(RoutingContext ctx) {
    JsonObject body;
    try {
      body = Requests.jsonObject(ctx);
      KeyService.KeyRequest.fromJson(body); // validate here: a bad request never reaches the store
    } catch (RuntimeException e) {
      ctx.fail(e);
      return;
    }
    Caller c = Caller.of(ctx);
    bus.request(Addresses.ACCESS_KEYS_CREATE, body.copy().put("actor", c.id()).put("actorRole", c.role()))
        .onSuccess(created -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .putHeader("Cache-Control", "no-store").end(created.encode()))
        .onFailure(ctx::fail);
  }

  private Future<JsonObject> audit(RoutingContext ctx) {
    try {
      long before = longParam(ctx, "before", 0, Long.MAX_VALUE);
      long limit = longParam(ctx, "limit", 1, AccessVerticle.MAX_AUDIT_PAGE);
      JsonObject q = new JsonObject().put("limit", limit == 0 ? 100 : (int) limit);
      if (before > 0) {
        q.put("before", before);
      }
      return bus.request(Addresses.AUDIT_LIST, q);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private static long longParam(RoutingContext ctx, String name, long min, long max) {
    String v = ctx.queryParams().get(name);
    if (v == null) {
      return 0;
    }
    try {
      long n = Long.parseLong(v);
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "parameter '" + name + "' must be a whole number "
          + min + ".." + max);
    }
  }
}
