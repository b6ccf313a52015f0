package dev.argus.metrics;

import io.vertx.core.http.HttpMethod;

import java.util.Set;

/**
 * The HTTP methods Argus knows: the only values the {@code method} label of the HTTP metrics can take. A request
 * with any other method name is answered 405 at the edge and never reaches the metrics, so that a client cannot
 * create metric series by inventing method names.
 */
public final class KnownMethods {

  public static final Set<HttpMethod> ALL = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT,
      HttpMethod.DELETE, HttpMethod.PATCH, HttpMethod.OPTIONS);

  private KnownMethods() {
  }

  public static boolean isKnown(HttpMethod method) {
    return method != null && ALL.contains(method);
  }
}
