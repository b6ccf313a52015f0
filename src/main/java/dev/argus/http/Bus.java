package dev.argus.http;

import dev.argus.bus.BusFailures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

/** Request/reply on the event bus from the HTTP layer, with a timeout and failures mapped to {@code ApiException}. */
public final class Bus {

  private final Vertx vertx;
  private final long timeoutMs;

  public Bus(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  public Future<JsonObject> request(String address, JsonObject body) {
    return request(address, body, timeoutMs);
  }

  public Future<JsonObject> request(String address, JsonObject body, long timeout) {
    return vertx.eventBus().<JsonObject>request(address, body, new DeliveryOptions().setSendTimeout(timeout))
        .map(msg -> msg.body())
        .recover(err -> Future.failedFuture(BusFailures.toApi(err)));
  }
}
