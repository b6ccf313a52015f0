package dev.argus.retrieval;

import dev.argus.bus.Addresses;
import dev.argus.config.RetrievalConf;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import dev.argus.http.Permission;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** {@code POST /api/search}: validates the {@link SearchRequest} and asks the retrieval verticle over the bus. */
public final class SearchRoutes implements RouteGroup {

  private final Bus bus;
  private final RetrievalConf conf;
  private final int maxQueryChars;

  public SearchRoutes(Bus bus, RetrievalConf conf, int maxQueryChars) {
    this.bus = bus;
    this.conf = conf;
    this.maxQueryChars = maxQueryChars;
  }

  @Override
  public void mount(Router router) {
    Permission.require(router.post("/api/search"), Permission.SEARCH).respond(this::search);
  }

  private Future<JsonObject> search(RoutingContext ctx) {
    try {
      JsonObject body = Requests.jsonObject(ctx);
      if (body != null) {
        body.remove("allowedNamespaces"); // the caller's key decides, never the body
      }
      Caller caller = Caller.of(ctx);
      SearchRequest request = SearchRequest.fromJson(body, conf, maxQueryChars).limitedTo(caller.namespaces());
      return bus.request(Addresses.RETRIEVE_SEARCH, request.toJson());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
