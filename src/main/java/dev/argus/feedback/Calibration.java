package dev.argus.feedback;

import dev.argus.bus.Addresses;
import dev.argus.config.FeedbackConf;
import dev.argus.feedback.calibration.Calibrator;
import dev.argus.feedback.calibration.Outcome;
import dev.argus.feedback.calibration.Reliability;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The calibrators of every profile: the newest one in memory (so {@code apply} answers without I/O), refitted per
 * {@link FeedbackConf#minLabels()}/{@link FeedbackConf#refitEvery()} after new labels. Refits of one profile run one
 * after another (a chain per profile); the fit itself runs on a worker. Used from the feedback verticle's context only.
 */
final class Calibration {

  private static final Logger LOG = Logger.getLogger(Calibration.class.getName());

  private final Vertx vertx;
  private final FeedbackStore store;
  private final FeedbackConf conf;
  private final Map<String, Calibrator> current = new HashMap<>();
  private final Map<String, Future<Calibrator>> chains = new HashMap<>();

  Calibration(Vertx vertx, FeedbackStore store, FeedbackConf conf) {
    this.vertx = vertx;
    this.store = store;
    this.conf = conf;
  }

  /** Loads the newest calibrator of every profile. */
  Future<Void> load() {
    return store.latestCalibrators().map(list -> {
      list.forEach(c -> current.put(c.profile(), c));
      return null;
    });
  }

  Calibrator current(String profile) {
    return current.getOrDefault(profile, Calibrator.identity(profile));
  }

  /**
   * {@code {calibrated, calibratorVersion, version, profile}}: the profile's newest calibrator applied;
   * {@code calibratorVersion} is {@code "v<n>"}, or {@code "raw"} (calibrated = raw, {@code version} 0) before the
   * first fit, as the decision service records a missing calibrator.
   */
  JsonObject apply(String profile, double confidence) {
    Calibrator c = current(profile);
    return new JsonObject().put("calibrated", c.apply(confidence)).put("calibratorVersion", versionName(c.version()))
        .put("version", c.version()).put("profile", profile);
  }

  /** {@code "v<n>"}, or {@code "raw"} for version 0 (no fit). */
  static String versionName(int version) {
    return version == 0 ? "raw" : "v" + version;
  }

  /**
   * Refits the profile's calibrator when enough labels have arrived since the last fit; completes with the calibrator
   * in force afterwards (never fails: a failed refit is logged and the old calibrator stays).
   */
  Future<Calibrator> maybeRefit(String profile) {
    Future<Calibrator> previous = chains.getOrDefault(profile, Future.succeededFuture());
    Future<Calibrator> next = previous.transform(ignored -> refitIfDue(profile))
        .recover(err -> {
          LOG.warning("refitting the calibrator of profile '" + profile + "' failed: " + err);
          return Future.succeededFuture(current(profile));
        });
    chains.put(profile, next);
    return next;
  }

  private Future<Calibrator> refitIfDue(String profile) {
    Calibrator before = current(profile);
    return store.outcomes(profile).compose(outcomes -> {
      int n = outcomes.size();
      boolean due = n >= conf.minLabels() && (before.isIdentity() || n - before.labels() >= conf.refitEvery());
      if (!due) {
        return Future.succeededFuture(before);
      }
      long now = System.currentTimeMillis();
      return vertx.executeBlocking(() -> Calibrator.fit(profile, before.version() + 1, now, outcomes), false)
          .compose(fitted -> store.saveCalibrator(fitted).map(fitted))
          .onSuccess(fitted -> {
            current.put(profile, fitted);
            LOG.info("calibrator of profile '" + profile + "' refitted: version " + fitted.version() + " on " + n
                + " labels, in-sample ECE " + fitted.eceBefore() + " -> " + fitted.eceAfter());
            vertx.eventBus().publish(Addresses.CALIBRATION_REFITTED, new JsonObject().put("profile", profile)
                .put("version", fitted.version()).put("labels", fitted.labels())
                .put("eceBefore", fitted.eceBefore()).put("eceAfter", fitted.eceAfter()));
          });
    });
  }

  /** The calibration report of one profile: raw, in-sample calibrated and decision-time reliability, the calibrator. */
  Future<JsonObject> report(String profile) {
    Calibrator c = current(profile);
    return Future.all(store.outcomes(profile), store.calibratedOutcomes(profile), store.calibratorHistory(profile, 20))
        .map(all -> {
          List<Outcome> raw = all.resultAt(0);
          List<Outcome> atDecision = all.resultAt(1);
          List<Calibrator> history = all.resultAt(2);
          JsonObject calibrated = Reliability.of(raw, c::apply).toJson()
              .put("note", "the current calibrator applied to the labels it was fitted on and later ones (in-sample)");
          JsonArray versions = new JsonArray();
          history.forEach(h -> {
            JsonObject v = h.toJson();
            v.remove("blocks");
            versions.add(v);
          });
          int labels = raw.size();
          int nextRefitAt = c.isIdentity() ? conf.minLabels() : c.labels() + conf.refitEvery();
          return new JsonObject().put("profile", profile).put("labels", labels)
              .put("buckets", Reliability.BUCKETS)
              .put("raw", Reliability.of(raw).toJson())
              .put("calibrated", calibrated)
              .put("atDecisionTime", Reliability.of(atDecision).toJson()
                  .put("note", "the calibrated confidence each decision carried when it was made"))
              .put("calibrator", c.toJson().put("fittedOnLabels", c.labels()))
              .put("versions", versions)
              .put("nextRefitAtLabels", nextRefitAt)
              .put("policy", new JsonObject().put("minLabels", conf.minLabels()).put("refitEvery", conf.refitEvery()));
        });
  }

  /** Every profile with labels or a calibrator: label count, calibrator version, in-sample ECE. */
  Future<JsonObject> summary() {
    return store.labelCounts().map(counts -> {
      Map<String, Long> all = new java.util.TreeMap<>(counts);
      current.keySet().forEach(p -> all.putIfAbsent(p, 0L));
      JsonArray profiles = new JsonArray();
      all.forEach((p, n) -> profiles.add(new JsonObject().put("profile", p).put("labels", n)
          .put("calibratorVersion", current(p).version()).put("fittedOnLabels", current(p).labels())));
      return new JsonObject().put("profiles", profiles);
    });
  }
}
