package dev.argus.citations;

import dev.argus.bus.Addresses;
import dev.argus.config.CitationsConf;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.Permission;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/citations/validate}: the body of {@code argus.graph.citations.validate}, checked here first (a 400
 * names the wrong field), answered with the validation results.
 */
public final class CitationRoutes implements RouteGroup {

  private final Bus bus;
  private final CitationsConf conf;

  public CitationRoutes(Bus bus, CitationsConf conf) {
    this.bus = bus;
    this.conf = conf;
  }

  @Override
  public void mount(Router router) {
    Permission.require(router.post("/api/citations/validate"), Permission.SEARCH).respond(this::validate);
  }

  private Future<JsonObject> validate(RoutingContext ctx) {
    try {
      JsonObject body = Requests.jsonObject(ctx);
      CitationRequest.fromJson(body, conf.maxCitations(), conf.maxEvidence());
      return bus.request(Addresses.CITATIONS_VALIDATE, body);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
