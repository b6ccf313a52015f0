package dev.argus.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;

/**
 * The routes of one capability, mounted by {@link HttpVerticle}. Handlers validate, send on the bus, reply.
 * Each route needs a {@link Permission}: declared on the route ({@link Permission#require}) or, for routes that
 * declare none, the group's {@link #permission} for the request's method.
 */
public interface RouteGroup {
  void mount(Router router);

  /** The permission this group's undeclared routes need: by default reads {@code READ}, the rest {@code ADMIN}. */
  default Permission permission(HttpMethod method) {
    return Permission.defaultFor(method);
  }
}
