package dev.argus.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;

import java.util.Locale;

/**
 * What a route (or a bridged address) lets its caller do. A route declares the permission it needs with
 * {@link #require}; a route group that declares nothing gets {@link RouteGroup#permission}'s default (reads need
 * {@link #READ}, everything else {@link #ADMIN}: a new route is closed until it says otherwise). Which roles hold
 * which permissions is the access capability's business; this package knows only the names.
 */
public enum Permission {
  /** No key needed, ever: health, the static web shell, the bridge's transport (it checks every message). */
  PUBLIC,
  /** Read documents, records, runs, decisions, metrics. */
  READ,
  /** Run searches. */
  SEARCH,
  /** Start chat runs (they spend LLM tokens). */
  CHAT,
  /** Write the knowledge base and records: ingest, load, delete. */
  INGEST,
  /** Ask for risk decisions. */
  DECIDE,
  /** Review decisions: approve, reject, override, feedback. */
  REVIEW,
  /** Keys, the audit log, evaluations and other administration. */
  ADMIN;

  /** The route metadata key under which a route's permission is kept. */
  public static final String METADATA_KEY = "argus.permission";

  /** Declares the permission {@code route} needs; returns the route for chaining. */
  public static Route require(Route route, Permission permission) {
    return route.putMetadata(METADATA_KEY, permission);
  }

  /** The default of a route that declares nothing: reads need {@link #READ}, other methods {@link #ADMIN}. */
  public static Permission defaultFor(HttpMethod method) {
    return method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS ? READ : ADMIN;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
