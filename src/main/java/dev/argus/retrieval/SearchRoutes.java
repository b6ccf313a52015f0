package dev.argus.retrieval;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** {@code POST /api/search}: validates the {@link SearchRequest} and asks the retrieval verticle over the bus. */
public final class SearchRoutes implements RouteGroup {

  private final Bus bus;
  private final ArgusConfig config;

  public SearchRoutes(Bus bus, ArgusConfig config) {
    this.bus = bus;
    this.config = config;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/search").respond(this::search);
  }

  private Future<JsonObject> search(RoutingContext ctx) {
    try {
      SearchRequest request = SearchRequest.fromJson(Requests.jsonObject(ctx), config.retrieval(),
          config.http().maxQueryChars());
      return bus.request(Addresses.RETRIEVE_SEARCH, request.toJson());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
