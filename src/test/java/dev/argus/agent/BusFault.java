package dev.argus.agent;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only fault injection in front of a real consumer, at the transport: an inbound event-bus interceptor on one
 * address that counts the requests, can fail the next ones (as a consumer failure with a code) or hold them back
 * for a while before the real consumer sees them. It never answers in place of the real verticle.
 */
final class BusFault {

  final String address;
  final AtomicInteger requests = new AtomicInteger();
  volatile int failNext;
  volatile int failCode = 503;
  volatile long delayMs;
  private final Vertx vertx;
  private final Handler<DeliveryContext<Object>> interceptor = this::intercept;

  private BusFault(Vertx vertx, String address) {
    this.vertx = vertx;
    this.address = address;
  }

  static BusFault on(Vertx vertx, String address) {
    BusFault f = new BusFault(vertx, address);
    vertx.eventBus().addInboundInterceptor(f.interceptor);
    return f;
  }

  void reset() {
    failNext = 0;
    failCode = 503;
    delayMs = 0;
  }

  private void intercept(DeliveryContext<Object> ctx) {
    if (!address.equals(ctx.message().address()) || ctx.message().replyAddress() == null) {
      ctx.next();
      return;
    }
    requests.incrementAndGet();
    if (failNext > 0) {
      failNext--;
      ctx.message().fail(failCode, new JsonObject().put("error", "injected failure").put("code", "unavailable").encode());
      return;
    }
    long delay = delayMs;
    if (delay > 0) {
      vertx.setTimer(delay, id -> ctx.next());
    } else {
      ctx.next();
    }
  }
}
