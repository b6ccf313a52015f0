package dev.argus.http;

import io.vertx.ext.web.Router;

/** The routes of one capability, mounted by {@link HttpVerticle}. Handlers validate, send on the bus, reply. */
public interface RouteGroup {
  void mount(Router router);
}
