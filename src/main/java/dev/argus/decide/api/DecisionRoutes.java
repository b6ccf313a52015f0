package dev.argus.decide.api;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.DecideConf;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import dev.argus.http.SseStream;
import dev.argus.runs.RunEvent;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

/**
 * Decisions over HTTP. {@code POST /api/decisions/onboarding} ({@code {sellerId} | {seller: {record}}}, optional
 * {@code asOf}) and {@code POST /api/decisions/transactions} ({@code {transactionId} | {transaction: {record}}}) answer
 * the decision JSON, or — when the client accepts {@code text/event-stream} — the run's SSE stream (the chat event
 * schema plus {@code reflection} and {@code decision}, ending with {@code final} or {@code error}; a request refused
 * before the run starts is a plain 4xx JSON answer). {@code GET /api/decisions} (subject, outcome, status, profile,
 * from, to, limit), {@code GET /api/decisions/{id}}, {@code GET /api/decisions/{id}/export?format=json|html}.
 * Reviews: {@code GET /api/reviews?status=pending&sort=confidence|age}, {@code POST /api/reviews/{id}/claim}
 * ({@code {analyst}}), {@code POST /api/reviews/{id}} ({@code {analyst, action, reason, outcome?}}). Shadow:
 * {@code GET /api/shadow/{version}/diff}.
 */
public final class DecisionRoutes implements RouteGroup {

  static final long HEARTBEAT_MS = 15_000;

  private final Vertx vertx;
  private final Bus bus;
  private final DecideConf conf;

  public DecisionRoutes(Vertx vertx, Bus bus, DecideConf conf) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/decisions/onboarding").handler(ctx -> decide(ctx, Addresses.DECIDE_ONBOARDING));
    router.post("/api/decisions/transactions").handler(ctx -> decide(ctx, Addresses.DECIDE_TRANSACTION));
    router.get("/api/decisions").respond(ctx -> bus.request(Addresses.DECISIONS_LIST, query(ctx)));
    router.get("/api/decisions/:id").respond(ctx -> bus.request(Addresses.DECISIONS_GET,
        new JsonObject().put("id", ctx.pathParam("id"))));
    router.get("/api/decisions/:id/export").handler(this::export);
    router.get("/api/reviews").respond(ctx -> bus.request(Addresses.REVIEWS_LIST, new JsonObject()
        .put("status", param(ctx, "status", "pending")).put("sort", param(ctx, "sort", "confidence"))
        .put("limit", Requests.queryInt(ctx, "limit", 50, 1, 500))));
    router.post("/api/reviews/:id/claim").respond(ctx -> bus.request(Addresses.REVIEWS_CLAIM,
        Requests.jsonObject(ctx).put("reviewId", ctx.pathParam("id"))));
    router.post("/api/reviews/:id").respond(ctx -> bus.request(Addresses.REVIEWS_COMPLETE,
        Requests.jsonObject(ctx).put("reviewId", ctx.pathParam("id"))));
    router.get("/api/shadow/:version/diff").respond(ctx -> bus.request(Addresses.SHADOW_DIFF, new JsonObject()
        .put("version", ctx.pathParam("version")).put("limit", Requests.queryInt(ctx, "limit", 500, 1, 10_000))));
  }

  private static String param(RoutingContext ctx, String name, String def) {
    String v = ctx.request().getParam(name);
    return v == null || v.isEmpty() ? def : v;
  }

  private static JsonObject query(RoutingContext ctx) {
    JsonObject q = new JsonObject();
    for (String p : List.of("subject", "outcome", "status", "profile", "from", "to")) {
      String v = ctx.request().getParam(p);
      if (v != null && !v.isEmpty()) {
        q.put(p, v);
      }
    }
    return q.put("limit", Requests.queryInt(ctx, "limit", 50, 1, 500));
  }

  private void export(RoutingContext ctx) {
    bus.request(Addresses.DECISIONS_EXPORT, new JsonObject().put("id", ctx.pathParam("id"))
        .put("format", param(ctx, "format", "json"))).onSuccess(r -> ctx.response()
            .putHeader("Content-Type", r.getString("contentType"))
            .putHeader("Content-Disposition", "inline; filename=\"" + ctx.pathParam("id").replaceAll("[^A-Za-z0-9_-]", "")
                + (r.getString("contentType").startsWith("text/html") ? ".html" : ".json") + "\"")
            .end(r.getString("body")))
        .onFailure(ctx::fail);
  }

  private static boolean wantsSse(RoutingContext ctx) {
    String accept = ctx.request().getHeader("Accept");
    return accept != null && accept.toLowerCase().contains("text/event-stream");
  }

  private void decide(RoutingContext ctx, String address) {
    JsonObject body;
    try {
      body = Requests.jsonObject(ctx);
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    long timeout = conf.decisionTimeoutMs() + 5_000;
    if (!wantsSse(ctx)) {
      body.remove("runId");
      bus.request(address, body, timeout).onSuccess(d -> ctx.json(d)).onFailure(ctx::fail);
      return;
    }
    String runId = UUID.randomUUID().toString();
    body.put("runId", runId);
    Deque<JsonObject> pending = new ArrayDeque<>();
    SseStream[] stream = new SseStream[1];
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.runEvents(runId));
    Runnable drain = () -> {
      SseStream s = stream[0];
      while (s != null && !s.isClosed() && !pending.isEmpty()) {
        JsonObject ev = pending.poll();
        s.send(String.valueOf(ev.getLong("id")), ev.getString("type"), ev.getJsonObject("data"));
        String type = ev.getString("type");
        if (RunEvent.FINAL.equals(type) || RunEvent.ERROR.equals(type)) {
          s.end();
        }
      }
      if (s != null && s.writeQueueFull()) {
        consumer.pause();
        s.onDrain(consumer::resume);
      }
    };
    consumer.handler(msg -> {
      pending.add(msg.body());
      if (stream[0] == null) {
        // the run started: from now on failures arrive as the stream's error event
        stream[0] = SseStream.start(vertx, ctx.request(), HEARTBEAT_MS).onClose(consumer::unregister);
      }
      drain.run();
    });
    consumer.completion().onSuccess(v -> bus.request(address, body, timeout).onFailure(err -> {
      if (stream[0] == null) {
        consumer.unregister();
        ctx.fail(err);
      }
    })).onFailure(ctx::fail);
  }
}
