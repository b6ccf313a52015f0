package dev.argus.citations;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * {@link GraphLookup} over the graph capability's bus addresses ({@code argus.graph.entity.get},
 * {@code argus.graph.relation.get}, {@code argus.graph.path}), each request with a send timeout. A 404 reply is an
 * absent entity, relation or path; any other failure fails the future.
 */
public final class BusGraphLookup implements GraphLookup {

  private final Vertx vertx;
  private final DeliveryOptions options;

  public BusGraphLookup(Vertx vertx, long sendTimeoutMs) {
    this.vertx = vertx;
    this.options = new DeliveryOptions().setSendTimeout(sendTimeoutMs);
  }

  @Override
  public Future<Optional<GraphEntity>> entity(String id) {
    return request(Addresses.GRAPH_ENTITY_GET, new JsonObject().put("id", id)).map(o -> o.map(GraphEntity::fromJson));
  }

  @Override
  public Future<Optional<GraphEdge>> relation(String id) {
    return request(Addresses.GRAPH_RELATION_GET, new JsonObject().put("id", id)).map(o -> o.map(GraphEdge::fromJson));
  }

  @Override
  public Future<Optional<GraphPath>> path(String from, String to, int maxDepth, String asOf, double minWeight) {
    JsonObject body = new JsonObject().put("from", from).put("to", to).put("maxDepth", maxDepth);
    if (minWeight > 0) {
      body.put("minWeight", minWeight);
    }
    if (asOf != null) {
      body.put("asOf", asOf);
    }
    return request(Addresses.GRAPH_PATH, body).map(o -> o.filter(r -> r.getBoolean("found", false))
        .map(r -> GraphPath.fromJson(r.getJsonObject("path"))));
  }

  private Future<Optional<JsonObject>> request(String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, options)
        .map(msg -> Optional.of(msg.body()))
        .recover(err -> err instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE
            && re.failureCode() == 404 ? Future.succeededFuture(Optional.empty()) : Future.failedFuture(err));
  }
}
