package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.store.DecisionQuery;
import dev.argus.decide.store.DecisionStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Serves decisions on the bus: {@code argus.decide.onboarding|transaction} (a decision), {@code argus.decisions.get|
 * list|export}, {@code argus.reviews.list|claim|complete} and {@code argus.shadow.diff}. A thin adapter over the
 * {@link DecisionEngine}, {@link Reviews} and {@link ShadowRunner}, all used on this verticle's context.
 */
public final class DecideVerticle extends VerticleBase {

  private final DecideConf conf;
  private final DecisionStore store;
  private final Function<io.vertx.core.Vertx, DecisionEngine> engineFactory;
  private final Function<io.vertx.core.Vertx, Reviews> reviewsFactory;
  private final ShadowRunner shadow;
  private DecisionEngine engine;
  private Reviews reviews;

  public DecideVerticle(DecideConf conf, DecisionStore store, Function<io.vertx.core.Vertx, DecisionEngine> engine,
                        Function<io.vertx.core.Vertx, Reviews> reviews, ShadowRunner shadow) {
    this.conf = conf;
    this.store = store;
    this.engineFactory = engine;
    this.reviewsFactory = reviews;
    this.shadow = shadow;
  }

  @Override
  public Future<?> start() {
    engine = engineFactory.apply(vertx);
    reviews = reviewsFactory.apply(vertx);
    return Future.all(java.util.List.of(
        on(Addresses.DECIDE_ONBOARDING, b -> decide(DecisionProfile.SELLER_ONBOARDING, b)),
        on(Addresses.DECIDE_TRANSACTION, b -> decide(DecisionProfile.TRANSACTION_INVESTIGATION, b)),
        on(Addresses.DECISIONS_GET, this::get),
        on(Addresses.DECISIONS_LIST, b -> store.list(DecisionQuery.fromJson(b)).map(list -> {
          JsonArray out = new JsonArray();
          list.forEach(d -> out.add(DecisionRecord.summary(d)));
          return new JsonObject().put("decisions", out);
        })),
        on(Addresses.DECISIONS_EXPORT, this::export),
        on(Addresses.REVIEWS_LIST, b -> reviews.list(b.getString("status", "pending"), b.getString("sort", "confidence"),
            b.getInteger("limit", 50))),
        on(Addresses.REVIEWS_CLAIM, b -> reviews.claim(b.getString("reviewId"), b.getValue("analyst") instanceof String
            ? b.getString("analyst") : null)),
        on(Addresses.REVIEWS_COMPLETE, reviews::complete),
        on(Addresses.SHADOW_DIFF, b -> shadow.diff(b.getString("version"), b.getInteger("limit", 500)))));
  }

  private Future<JsonObject> decide(DecisionProfile profile, JsonObject body) {
    return engine.decide(profile, body).timeout(conf.decisionTimeoutMs(), TimeUnit.MILLISECONDS);
  }

  private Future<JsonObject> get(JsonObject b) {
    String runId = b.getValue("id") == null && b.getValue("runId") instanceof String r ? r : null;
    if (runId != null) { // the decision of a run (a node taking over a decision run whose node died asks)
      return store.byRun(runId).map(found -> found.orElseThrow(() -> ApiException.notFound("unknown_decision",
          "run '" + runId + "' recorded no decision")));
    }
    String id = b.getString("id");
    return store.get(id).compose(found -> {
      JsonObject d = found.orElseThrow(() -> ApiException.notFound("unknown_decision", "no decision '" + id + "'"));
      return store.correctedBy(id).map(ids -> d.put("correctedBy", new JsonArray(ids)));
    });
  }

  private Future<JsonObject> export(JsonObject b) {
    String format = b.getString("format", "json");
    if (!format.equals("json") && !format.equals("html")) {
      return Future.failedFuture(ApiException.badRequest("invalid_parameter", "format must be json or html"));
    }
    return get(b).map(d -> {
      JsonArray corrected = (JsonArray) d.remove("correctedBy");
      return format.equals("json")
          ? new JsonObject().put("contentType", "application/json").put("body", AuditExport.json(d, corrected).encodePrettily())
          : new JsonObject().put("contentType", "text/html; charset=utf-8").put("body", AuditExport.html(d, corrected));
    });
  }

  private Future<Void> on(String address, Function<JsonObject, Future<JsonObject>> handler) {
    return vertx.eventBus().<JsonObject>consumer(address, (Message<JsonObject> msg) -> {
      Future<JsonObject> result;
      try {
        result = handler.apply(msg.body() == null ? new JsonObject() : msg.body());
      } catch (RuntimeException e) {
        result = Future.failedFuture(e);
      }
      result.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
    }).completion();
  }
}
