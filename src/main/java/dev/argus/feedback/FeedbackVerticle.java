package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import dev.argus.config.FeedbackConf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Feedback and calibration on the bus ({@code argus.feedback.*}, {@code argus.calibration.*}); indexes every decision
 * published on {@code argus.decisions.created}, and labels decisions from closed cases ({@code argus.records.changed},
 * {@link CaseLabels}) and completed reviews ({@code argus.reviews.completed}, {@link ReviewLabels}). A thin adapter over {@link FeedbackService} and {@link Calibration}.
 */
public final class FeedbackVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(FeedbackVerticle.class.getName());
  static final int MAX_PROFILE = 64;

  private final FeedbackConf conf;
  private final FeedbackStore store;
  private FeedbackService service;
  private Calibration calibration;
  private CaseLabels caseLabels;
  private ReviewLabels reviewLabels;

  public FeedbackVerticle(FeedbackConf conf, FeedbackStore store) {
    this.conf = conf;
    this.store = store;
  }

  @Override
  public Future<?> start() {
    calibration = new Calibration(vertx, store, conf);
    service = new FeedbackService(vertx, store, calibration, conf);
    caseLabels = new CaseLabels(vertx, store, service, conf.targetTimeoutMs());
    reviewLabels = new ReviewLabels(service);
    var eb = vertx.eventBus();
    List<Future<Void>> ready = List.of(
        eb.<JsonObject>consumer(Addresses.FEEDBACK_SUBMIT, msg -> reply(msg,
            b -> service.submit(FeedbackRequest.fromJson(b)))).completion(),
        eb.<JsonObject>consumer(Addresses.FEEDBACK_QUEUE, msg -> reply(msg, b -> service.queue(
            profile(b, false), Fields.optionalInt(b, "limit", 1, conf.maxQueueLimit()) == null ? 50
                : b.getInteger("limit")))).completion(),
        eb.<JsonObject>consumer(Addresses.FEEDBACK_STATS, msg -> reply(msg, b -> service.stats())).completion(),
        eb.<JsonObject>consumer(Addresses.FEEDBACK_LIST, msg -> reply(msg, b -> service.list(
            Fields.requiredString(b, "targetId", FeedbackRequest.MAX_ID),
            b.getValue("limit") == null ? 100 : Fields.optionalInt(b, "limit", 1, 1000)))).completion(),
        eb.<JsonObject>consumer(Addresses.CALIBRATION_GET, msg -> reply(msg, b -> {
          String profile = profile(b, false);
          return profile == null ? calibration.summary() : calibration.report(profile);
        })).completion(),
        eb.<JsonObject>localConsumer(Addresses.DECISIONS_CREATED, msg -> service.index(msg.body())
            .onFailure(err -> LOG.warning("decision not indexed for feedback: " + err.getMessage()))).completion(),
        eb.<JsonObject>localConsumer(Addresses.RECORDS_CHANGED, msg -> {
          if (conf.caseLabels()) {
            caseLabels.onRecordsChanged(msg.body()).onSuccess(n -> {
              if (n > 0) {
                LOG.info(n + " decision(s) labelled from closed cases");
              }
            });
          }
        }).completion(),
        eb.<JsonObject>consumer(Addresses.REVIEWS_COMPLETED, msg -> {
          if (conf.caseLabels()) {
            reviewLabels.onReviewCompleted(msg.body());
          }
        }).completion());
    Future<Void> apply = !conf.applyCalibration() ? Future.succeededFuture()
        : eb.<JsonObject>consumer(Addresses.CALIBRATION_APPLY, msg -> reply(msg, b -> Future.succeededFuture(
            calibration.apply(profile(b, true), confidence(b))))).completion();
    return Future.all(ready).compose(v -> apply).compose(v -> calibration.load());
  }

  private static String profile(JsonObject b, boolean required) {
    String p = required ? Fields.requiredString(b, "profile", MAX_PROFILE) : Fields.optionalString(b, "profile", MAX_PROFILE);
    if (p != null && !p.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw ApiException.badRequest("invalid_field", "field 'profile' must match [A-Za-z0-9_.-]{1,64}");
    }
    return p == null || p.isEmpty() ? null : p;
  }

  private static double confidence(JsonObject b) {
    Object v = b.getValue("confidence");
    if (v == null) {
      throw ApiException.badRequest("missing_field", "field 'confidence' is required");
    }
    if (!(v instanceof Number n) || !(n.doubleValue() >= 0 && n.doubleValue() <= 1)) {
      throw ApiException.badRequest("invalid_field", "field 'confidence' must be a number within 0..1");
    }
    return n.doubleValue();
  }

  /** Runs {@code action} on the message body and replies with its result, or with its failure (4xx/5xx). */
  private static void reply(Message<JsonObject> msg, Function<JsonObject, Future<JsonObject>> action) {
    Future<JsonObject> result;
    try {
      result = action.apply(msg.body() == null ? new JsonObject() : msg.body());
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
  }
}
