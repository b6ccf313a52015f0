package dev.argus.graph;

import dev.argus.http.Permission;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Caller;
import dev.argus.http.RouteGroup;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/entities/search?q=&type=&limit=} (fuzzy), {@code GET /api/entities/{id}},
 * {@code GET /api/entities/{id}/graph?depth=&limit=&fanout=&minWeight=&asOf=} (nodes, edges with provenance — what a
 * graph view needs), {@code GET /api/relations/{id}} and {@code POST /api/graph/investigate}
 * ({@code {"entity": id, "maxHops"?, "minWeight"?, "asOf"?}}). Entity ids hold colons and other characters: URL-encode
 * them in the path. Bad parameters answer 400 {@code {error, code}}; an unknown entity 404. A key limited to
 * namespaces does not see documents of other namespaces in any of these answers ({@link DocumentVisibility}).
 */
public final class GraphRoutes implements RouteGroup {

  private final Bus bus;
  private final DocumentVisibility visibility;

  public GraphRoutes(Bus bus) {
    this.bus = bus;
    this.visibility = new DocumentVisibility(bus);
  }

  @Override
  public void mount(Router router) {
    router.get("/api/entities/search").respond(ctx -> bus.request(Addresses.GRAPH_SEARCH, new JsonObject()
        .put("q", ctx.request().getParam("q")).put("type", ctx.request().getParam("type"))
        .put("limit", integer(ctx, "limit"))).map(a -> visibility.search(a, Caller.of(ctx))));
    router.get("/api/entities/:id/graph").respond(ctx -> {
      JsonObject q = new JsonObject().put("id", ctx.pathParam("id")).put("depth", integer(ctx, "depth"))
          .put("limit", integer(ctx, "limit")).put("fanout", integer(ctx, "fanout"))
          .put("minWeight", number(ctx, "minWeight")).put("asOf", ctx.request().getParam("asOf"));
      return bus.request(Addresses.GRAPH_NEIGHBOURHOOD, q)
          .map(sub -> visibility.subgraph(sub, Caller.of(ctx), ctx.pathParam("id")))
          .compose(sub -> withProvenance(sub));
    });
    router.get("/api/entities/:id").respond(ctx -> bus.request(Addresses.GRAPH_ENTITY_GET,
        new JsonObject().put("id", ctx.pathParam("id")))
        .map(n -> visibility.entity(n, Caller.of(ctx), ctx.pathParam("id"))));
    router.get("/api/relations/:id").respond(ctx -> bus.request(Addresses.GRAPH_RELATION_GET,
        new JsonObject().put("id", ctx.pathParam("id")))
        .compose(e -> visibility.relation(e, Caller.of(ctx), ctx.pathParam("id"))));
    Permission.require(router.post("/api/graph/investigate"), Permission.SEARCH).respond(ctx -> bus.request(
        Addresses.GRAPH_INVESTIGATE, body(ctx)).compose(a -> visibility.investigation(a, Caller.of(ctx))));
  }

  /** Each edge of a graph view with its first sources (one relation.get per edge, at most the view's edges). */
  private io.vertx.core.Future<JsonObject> withProvenance(JsonObject sub) {
    var edges = sub.getJsonArray("edges");
    java.util.List<io.vertx.core.Future<JsonObject>> all = new java.util.ArrayList<>();
    for (int i = 0; i < edges.size(); i++) {
      JsonObject e = edges.getJsonObject(i);
      all.add(bus.request(Addresses.GRAPH_RELATION_GET, new JsonObject().put("id", e.getString("id")))
          .map(full -> e.put("provenance", full.getJsonArray("provenance")).put("sources", full.getLong("sources")))
          .recover(err -> io.vertx.core.Future.succeededFuture(e)));
    }
    return io.vertx.core.Future.all(all).map(v -> sub);
  }

  private static JsonObject body(RoutingContext ctx) {
    if (ctx.body() == null || ctx.body().length() == 0) {
      throw ApiException.badRequest("empty_body", "expected a JSON object");
    }
    try {
      JsonObject b = ctx.body().asJsonObject();
      if (b == null) {
        throw ApiException.badRequest("invalid_json", "expected a JSON object");
      }
      return b;
    } catch (DecodeException | ClassCastException e) {
      throw ApiException.badRequest("invalid_json", "the body is not a JSON object");
    }
  }

  private static Long integer(RoutingContext ctx, String name) {
    String v = ctx.request().getParam(name);
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "query parameter '" + name + "' must be an integer");
    }
  }

  private static Double number(RoutingContext ctx, String name) {
    String v = ctx.request().getParam(name);
    if (v == null || v.isEmpty()) {
      return null;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "query parameter '" + name + "' must be a number");
    }
  }
}
