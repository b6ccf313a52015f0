package dev.argus.retrieval;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Locale;
import java.util.Map;

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
      SearchRequest request = SearchRequest.fromJson(jsonObject(ctx), config.retrieval(),
          config.http().maxQueryChars());
      return bus.request(Addresses.RETRIEVE_SEARCH, request.toJson());
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /**
   * The body as a JSON object, with the same checks and codes as {@link Requests#jsonObject} (415 unless JSON,
   * 400 {@code invalid_json}). Parsed here because {@code Buffer.toJson()}, which {@code Requests} uses, decodes
   * an object to a {@code Map} in Vert.x 5, not a {@code JsonObject}.
   */
  static JsonObject jsonObject(RoutingContext ctx) {
    String type = ctx.request().getHeader("Content-Type");
    if (type != null && !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw ApiException.unsupportedMedia("expected Content-Type application/json, got " + type);
    }
    if (ctx.body() == null || ctx.body().length() == 0) {
      throw ApiException.badRequest("invalid_json", "request body is empty; expected a JSON object");
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(ctx.body().buffer());
    } catch (DecodeException e) {
      throw ApiException.badRequest("invalid_json", "request body is not valid JSON");
    }
    if (parsed instanceof Map<?, ?> map) {
      parsed = jsonObject(map);
    }
    if (!(parsed instanceof JsonObject obj)) {
      throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
    }
    return obj;
  }

  @SuppressWarnings("unchecked")
  private static JsonObject jsonObject(Map<?, ?> map) {
    return new JsonObject((Map<String, Object>) map); // JSON object keys are strings
  }
}
