package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Permission;
import dev.argus.http.RouteGroup;
import dev.argus.http.Requests;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/feedback} (201 with the stored verdict), {@code GET /api/feedback?decisionId=|runId=} (verdicts on
 * one target), {@code GET /api/feedback/queue?profile=&limit=}, {@code GET /api/feedback/stats} and
 * {@code GET /api/calibration?profile=}. Bodies larger than {@value #MAX_BODY_BYTES} bytes are refused (413).
 */
public final class FeedbackRoutes implements RouteGroup {

  static final int MAX_BODY_BYTES = 16 * 1024;

  private final Bus bus;
  private final int maxQueueLimit;

  public FeedbackRoutes(Bus bus, int maxQueueLimit) {
    this.bus = bus;
    this.maxQueueLimit = maxQueueLimit;
  }

  @Override
  public void mount(Router router) {
    Permission.require(router.post("/api/feedback"), Permission.REVIEW).handler(this::submit);
    router.get("/api/feedback").respond(ctx -> bus.request(Addresses.FEEDBACK_LIST, target(ctx)));
    router.get("/api/feedback/queue").respond(ctx -> bus.request(Addresses.FEEDBACK_QUEUE, new JsonObject()
        .put("profile", profile(ctx)).put("limit", Requests.queryInt(ctx, "limit", 50, 1, maxQueueLimit))));
    router.get("/api/feedback/stats").respond(ctx -> bus.request(Addresses.FEEDBACK_STATS, new JsonObject()));
    router.get("/api/calibration").respond(ctx -> bus.request(Addresses.CALIBRATION_GET,
        new JsonObject().put("profile", profile(ctx))));
  }

  private void submit(RoutingContext ctx) {
    if (ctx.body() != null && ctx.body().length() > MAX_BODY_BYTES) {
      ctx.fail(ApiException.tooLarge("a feedback body may hold at most " + MAX_BODY_BYTES + " bytes"));
      return;
    }
    JsonObject body;
    FeedbackRequest req;
    try {
      body = Requests.jsonObject(ctx);
      req = FeedbackRequest.fromJson(body); // checked here too: a bad body never reaches the bus
    } catch (ApiException e) {
      ctx.fail(e);
      return;
    }
    bus.request(Addresses.FEEDBACK_SUBMIT, req.toJson()).onSuccess(reply -> ctx.response().setStatusCode(201)
            .putHeader("Content-Type", "application/json")
            .putHeader("Location", "/api/feedback?" + (req.target() == FeedbackRequest.Target.DECISION ? "decisionId="
                : "runId=") + java.net.URLEncoder.encode(req.targetId(), java.nio.charset.StandardCharsets.UTF_8))
            .end(reply.encode()))
        .onFailure(ctx::fail);
  }

  private static String profile(RoutingContext ctx) {
    String p = ctx.request().getParam("profile");
    return p == null || p.isBlank() ? null : p;
  }

  private static JsonObject target(RoutingContext ctx) {
    String decisionId = ctx.request().getParam("decisionId");
    String runId = ctx.request().getParam("runId");
    if ((decisionId == null) == (runId == null)) {
      throw ApiException.badRequest("invalid_target", "give exactly one of the query parameters decisionId and runId");
    }
    return new JsonObject().put("targetId", decisionId != null ? decisionId : runId)
        .put("limit", Requests.queryInt(ctx, "limit", 100, 1, 1000));
  }
}
