package dev.argus.access;

import dev.argus.common.ApiException;
import dev.argus.http.Caller;
import dev.argus.http.RouteGroup;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.regex.Pattern;

/**
 * Namespace limits on the fraud domain's data. Records, the entity graph built from them, decisions, reviews,
 * shadow diffs, backtests, citation validation, calibration and the feedback queue all belong to one namespace, the
 * one the records' case documents are ingested into ({@code records.caseNamespace}); a key limited to namespaces may
 * read or change them only when that namespace is among its own (403 {@code namespace_forbidden} otherwise), as
 * documents and searches already do. One filter in front of those routes (mounted before them), so the capabilities
 * themselves stay unchanged. A regex route: it has no path template, so it is neither an operation of the OpenAPI
 * document nor an entry of the permission table (the routes behind it keep their own permissions).
 */
public final class DomainNamespaceGuard implements RouteGroup {

  /** The paths of the fraud domain's data. */
  static final Pattern DOMAIN = Pattern.compile("/api/(?:(?:records|decisions|reviews|entities|relations|graph|shadow"
      + "|backtests|citations|calibration)(?:/.*)?|feedback/queue)");

  private final String namespace;

  /** @param namespace the records' namespace ({@code records.caseNamespace}) */
  public DomainNamespaceGuard(String namespace) {
    this.namespace = namespace;
  }

  @Override
  public void mount(Router router) {
    router.routeWithRegex(DOMAIN.pattern()).handler(this::check);
  }

  private void check(RoutingContext ctx) {
    if (Caller.of(ctx).mayRead(namespace)) {
      ctx.next();
    } else {
      ctx.fail(new ApiException(403, "namespace_forbidden", "this key may not use the fraud-domain data (records, "
          + "graph, decisions, reviews) of namespace '" + namespace + "'"));
    }
  }
}
