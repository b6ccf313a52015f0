package dev.argus.backtest;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import dev.argus.config.BacktestConf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Backtests on the bus ({@code argus.backtest.*}): starts a job per request ({@link BacktestRunner}), keeps the last
 * {@code backtest.maxJobs} in memory (the oldest finished one makes room; when all are running a new one is refused
 * with 503), answers their status and reports, publishes their events on {@code argus.backtest.<id>.events}, and
 * adopts a completed backtest's proposed thresholds as a new scoring version ({@link ScoringVersions}). {@link #stop()}
 * ends running jobs failed ("shutdown") after the decisions in flight. With a {@link BacktestStore} every job is
 * saved when it starts and when it ends (report and verdicts), jobs no longer in memory are answered from it, and
 * jobs an earlier process left running are marked failed at start.
 */
public final class BacktestVerticle extends VerticleBase {

  private final BacktestConf conf;
  private final int maxGenerateSellers;
  private final Map<String, BacktestJob> jobs = new LinkedHashMap<>();
  private boolean stopping;

  private final String scoringDir;
  private final BacktestStore store;
  static final String INTERRUPTED = "interrupted: the service stopped while the backtest ran";

  /** {@code scoringDir}: the decision engine's scoring folder ({@code decide.scoringDir}), where adoptions go. */
  public BacktestVerticle(BacktestConf conf, String scoringDir) {
    this(conf, scoringDir, null);
  }

  /** {@code store}: where jobs and reports are kept across restarts (null: memory only). */
  public BacktestVerticle(BacktestConf conf, String scoringDir, BacktestStore store) {
    this.conf = conf;
    this.scoringDir = scoringDir;
    this.store = store;
    this.maxGenerateSellers = 20_000;
  }

  private Future<Void> save(BacktestJob job) {
    if (store == null) {
      return Future.succeededFuture();
    }
    JsonArray verdicts = null;
    if (job.status().finished()) {
      verdicts = new JsonArray();
      for (Verdict v : job.verdicts) {
        verdicts.add(v.toJson());
      }
    }
    return store.save(job.toJson(true), verdicts, job.createdAtMs()).onFailure(err ->
        java.util.logging.Logger.getLogger(BacktestVerticle.class.getName()).warning("backtest " + job.id()
            + " not saved: " + err.getMessage()));
  }

  @Override
  public Future<?> start() {
    var eb = vertx.eventBus();
    Future<?> interrupted = store == null ? Future.succeededFuture() : store.failInterrupted(INTERRUPTED);
    return interrupted.compose(n -> Future.all(List.of(
        eb.<JsonObject>consumer(Addresses.BACKTEST_START, msg -> reply(msg, this::start)).completion(),
        eb.<JsonObject>consumer(Addresses.BACKTEST_GET, msg -> reply(msg, this::get)).completion(),
        eb.<JsonObject>consumer(Addresses.BACKTEST_LIST, msg -> reply(msg, b -> list())).completion(),
        eb.<JsonObject>consumer(Addresses.BACKTEST_DECISIONS, msg -> reply(msg, this::decisions)).completion(),
        eb.<JsonObject>consumer(Addresses.BACKTEST_ADOPT, msg -> reply(msg, this::adopt)).completion())));
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    List<Future<JsonObject>> running = new ArrayList<>();
    jobs.values().stream().filter(j -> !j.status().finished()).forEach(j -> running.add(j.completion()));
    return Future.join(running).otherwiseEmpty();
  }

  private static void reply(Message<JsonObject> msg, Function<JsonObject, Future<JsonObject>> action) {
    Future<JsonObject> result;
    try {
      result = action.apply(msg.body() == null ? new JsonObject() : msg.body());
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
  }

  private Future<JsonObject> start(JsonObject body) {
    if (stopping) {
      throw ApiException.unavailable("shutting_down", "the service is shutting down");
    }
    BacktestRequest req = BacktestRequest.fromJson(body, maxGenerateSellers);
    if (jobs.size() >= conf.maxJobs()) {
      jobs.values().stream().filter(j -> j.status().finished()).findFirst().ifPresent(j -> jobs.remove(j.id()));
    }
    if (jobs.size() >= conf.maxJobs()) {
      throw ApiException.unavailable("too_many_backtests", "too many backtests are running (" + conf.maxJobs()
          + "); try again later");
    }
    BacktestJob job = new BacktestJob(req.describe());
    jobs.put(job.id(), job);
    vertx.runOnContext(v -> {
      job.start();
      save(job);
      new BacktestRunner(vertx, conf, job, req, j -> publish(j, BacktestEvent.PROGRESS, j.toJson(false)),
          () -> stopping).run()
          .onComplete(ar -> {
            job.finish(ar.succeeded() ? ar.result() : null, ar.succeeded() ? null : message(ar.cause()));
            save(job).onComplete(x -> publish(job, BacktestEvent.DONE, job.toJson(true)));
          });
    });
    return Future.succeededFuture(job.toJson(false));
  }

  private static String message(Throwable err) {
    ApiException api = BusFailures.toApi(err);
    return api.code() + ": " + api.getMessage();
  }

  private void publish(BacktestJob job, String type, JsonObject data) {
    long seq = job.nextSeq();
    data.put("lastEventId", seq);
    vertx.eventBus().publish(Addresses.backtestEvents(job.id()), new BacktestEvent(seq, type, data).toJson());
  }

  private BacktestJob job(JsonObject body) {
    String id = Fields.requiredString(body, "backtestId", 64);
    BacktestJob job = jobs.get(id);
    if (job == null) {
      throw ApiException.notFound("unknown_backtest", "no backtest '" + id + "'");
    }
    return job;
  }

  /** The stored job of an id not in memory; 404 when neither has it. */
  private Future<BacktestStore.Stored> stored(JsonObject body) {
    String id = Fields.requiredString(body, "backtestId", 64);
    if (store == null) {
      return Future.failedFuture(ApiException.notFound("unknown_backtest", "no backtest '" + id + "'"));
    }
    return store.get(id).map(found -> found.orElseThrow(() -> ApiException.notFound("unknown_backtest",
        "no backtest '" + id + "'")));
  }

  private boolean inMemory(JsonObject body) {
    return jobs.containsKey(Fields.requiredString(body, "backtestId", 64));
  }

  private Future<JsonObject> get(JsonObject body) {
    if (!inMemory(body)) {
      return stored(body).map(BacktestStore.Stored::job);
    }
    return Future.succeededFuture(job(body).toJson(true));
  }

  /** One page of the verdicts, optionally only one pattern, one outcome or one truth. */
  private Future<JsonObject> decisions(JsonObject body) {
    if (!inMemory(body)) {
      return stored(body).map(st -> page(body, st.verdicts().stream().map(o -> (JsonObject) o).toList()));
    }
    BacktestJob job = job(body);
    return Future.succeededFuture(page(body, job.verdicts.stream().map(Verdict::toJson).toList()));
  }

  private static JsonObject page(JsonObject body, List<JsonObject> verdicts) {
    Integer offset = Fields.optionalInt(body, "offset", 0, Integer.MAX_VALUE);
    Integer limit = Fields.optionalInt(body, "limit", 1, 1000);
    String pattern = Fields.optionalString(body, "pattern", 64);
    String outcome = Fields.optionalString(body, "outcome", 16);
    Object fraud = body.getValue("fraud");
    if (fraud != null && !(fraud instanceof Boolean)) {
      throw ApiException.badRequest("invalid_field", "field 'fraud' must be true or false");
    }
    List<JsonObject> matching = verdicts.stream()
        .filter(v -> pattern == null || pattern.equals(v.getString("pattern")))
        .filter(v -> outcome == null || outcome.equalsIgnoreCase(String.valueOf(v.getValue("outcome"))))
        .filter(v -> fraud == null || v.getBoolean("fraud", false) == (Boolean) fraud).toList();
    int from = offset == null ? 0 : offset;
    int size = limit == null ? 100 : limit;
    JsonArray page = new JsonArray();
    matching.stream().skip(from).limit(size).forEach(page::add);
    return new JsonObject().put("decisions", page).put("total", matching.size()).put("offset", from)
        .put("limit", size);
  }

  private Future<JsonObject> list() {
    List<BacktestJob> all = new ArrayList<>(jobs.values());
    java.util.Collections.reverse(all);
    JsonArray out = new JsonArray();
    all.forEach(j -> out.add(j.toJson(false)));
    if (store == null) {
      return Future.succeededFuture(new JsonObject().put("backtests", out));
    }
    // then the stored ones no longer in memory (earlier processes, or made room for), newest first
    return store.list(conf.maxJobs() * 4).map(stored -> {
      stored.stream().filter(j -> !jobs.containsKey(j.getString("backtestId"))).forEach(out::add);
      return new JsonObject().put("backtests", out);
    });
  }

  /** {@code {backtestId, profile?, version?, adoptedBy}}: the completed backtest's proposal as a new scoring version. */
  private Future<JsonObject> adopt(JsonObject body) {
    if (!inMemory(body)) {
      return stored(body).compose(st -> adopt(body, st.job().getString("backtestId"), st.job().getString("status"),
          st.job().getJsonObject("report")));
    }
    BacktestJob job = job(body);
    return adopt(body, job.id(), job.status().wire(), job.report());
  }

  private Future<JsonObject> adopt(JsonObject body, String id, String status, JsonObject report) {
    String adoptedBy = Fields.requiredString(body, "adoptedBy", 200);
    if (!BacktestJob.Status.COMPLETED.wire().equals(status) || report == null) {
      throw new ApiException(409, "backtest_not_completed", "backtest '" + id + "' is " + status
          + "; only a completed backtest's thresholds can be adopted");
    }
    JsonObject profiles = report.getJsonObject("profiles");
    String profile = Fields.optionalString(body, "profile", 64);
    if (profile == null) {
      if (profiles.size() != 1) {
        throw ApiException.badRequest("missing_field", "field 'profile' is required: the backtest decided "
            + profiles.fieldNames());
      }
      profile = profiles.fieldNames().iterator().next();
    }
    JsonObject section = profiles.getJsonObject(profile);
    JsonObject proposed = section == null ? null : section.getJsonObject("thresholds").getJsonObject("proposed");
    if (proposed == null) {
      throw ApiException.notFound("no_proposal", "backtest '" + id + "' has no proposed thresholds for '"
          + profile + "'");
    }
    String version = Fields.optionalString(body, "version", 64);
    String v = version != null ? version : "backtest-" + id.substring(0, 8);
    JsonObject adoption = new JsonObject().put("backtestId", id).put("adoptedBy", adoptedBy)
        .put("costs", section.getJsonObject("thresholds").getJsonObject("costs"))
        .put("expectedCost", proposed.getValue("cost")).put("costAsDecided", section.getValue("costAsDecided"))
        .put("recall", proposed.getValue("recall")).put("precision", proposed.getValue("precision"))
        .put("reviewRate", proposed.getValue("reviewRate"));
    String p = profile;
    return vertx.executeBlocking(() -> ScoringVersions.adopt(scoringDir, p, v, proposed.getDouble("review"),
        proposed.getDouble("reject"), adoption));
  }
}
