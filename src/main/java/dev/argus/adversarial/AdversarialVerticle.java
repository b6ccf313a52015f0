package dev.argus.adversarial;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import dev.argus.config.AdversarialConf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Adversarial runs on the bus ({@code argus.adversarial.*}): starts a run in the background ({@link AdversarialRunner})
 * and answers at once, keeps the live ones with their progress, publishes {@code progress} and a last {@code done}
 * event on {@code argus.adversarial.<id>.events}, and persists every run with its report
 * ({@link AdversarialReport} plus the findings and the regressions against the previous completed run of the same
 * suite and size). Runs left running by a stopped process are marked failed at start.
 */
public final class AdversarialVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(AdversarialVerticle.class.getName());

  private final AdversarialConf conf;
  private final AdversarialStore store;
  private final Map<String, Live> live = new HashMap<>();

  /** A run in progress: its stored form, the latest progress and the last event number. */
  private static final class Live {
    AdversarialRun run;
    String phase = "planning";
    JsonObject counts = new JsonObject();
    long seq;

    JsonObject toJson() {
      return run.toJson().put("phase", phase).put("progress", counts.copy()).put("lastEventId", seq);
    }
  }

  public AdversarialVerticle(AdversarialConf conf, AdversarialStore store) {
    this.conf = conf;
    this.store = store;
  }

  @Override
  public Future<?> start() {
    var eb = vertx.eventBus();
    return store.failInterrupted(System.currentTimeMillis()).compose(n -> {
      if (n > 0) {
        LOG.warning(n + " adversarial run(s) interrupted by the last stop marked failed");
      }
      return Future.all(List.of(
          eb.<JsonObject>consumer(Addresses.ADVERSARIAL_START, msg -> reply(msg, this::start)).completion(),
          eb.<JsonObject>consumer(Addresses.ADVERSARIAL_GET, msg -> reply(msg, this::get)).completion(),
          eb.<JsonObject>consumer(Addresses.ADVERSARIAL_LIST, msg -> reply(msg, this::list)).completion()));
    });
  }

  private Future<JsonObject> start(JsonObject body) {
    AdversarialRequest req = AdversarialRequest.fromJson(body, conf);
    if (live.size() >= conf.maxRunning()) {
      return Future.failedFuture(new ApiException(429, "too_many_runs", "an adversarial run is already going ("
          + String.join(", ", live.keySet()) + "); at most " + conf.maxRunning() + " at once"));
    }
    long now = System.currentTimeMillis();
    AdversarialRun run = new AdversarialRun("adv-" + UUID.randomUUID(), req.suite(), req.size(), conf.seed(),
        AdversarialRun.RUNNING, null, null, now, null);
    Live l = new Live();
    l.run = run;
    live.put(run.executionId(), l); // reserved before the write, so a second start cannot slip past maxRunning
    return store.save(run).onFailure(err -> live.remove(run.executionId())).map(v -> {
      long t0 = System.nanoTime();
      AdversarialRunner runner = new AdversarialRunner(vertx, conf, run, (phase, counts) -> {
        l.phase = phase;
        l.counts = counts;
        publish(l, "progress", l.toJson());
      });
      runner.run()
          .compose(findings -> finish(l, findings, (System.nanoTime() - t0) / 1_000_000, runner.world()))
          .recover(err -> {
            LOG.warning("adversarial run " + run.executionId() + " failed: " + err.getMessage());
            l.run = run.failed(String.valueOf(err.getMessage()), System.currentTimeMillis());
            return store.save(l.run);
          })
          .onComplete(ar -> {
            live.remove(run.executionId());
            publish(l, "done", l.run.toJson());
          });
      return l.toJson();
    });
  }

  private Future<Void> finish(Live l, List<Finding> findings, long elapsedMs, JsonObject world) {
    AdversarialRun run = l.run;
    return store.previousCompleted(run.suiteKey(), run.size(), run.executionId()).compose(previous -> {
      JsonObject report = AdversarialReport.of(run.suite(), findings);
      JsonObject baseline = previous.map(AdversarialRun::report).orElse(null);
      JsonArray regressions = Regressions.compare(report, baseline, conf.regressionTolerance());
      JsonArray all = new JsonArray();
      findings.forEach(f -> all.add(f.toJson()));
      report.put("baselineExecutionId", previous.map(AdversarialRun::executionId).orElse(null))
          .put("regressions", regressions).put("findings", all).put("elapsedMs", elapsedMs)
          .put("world", world.isEmpty() ? null : world);
      if (!regressions.isEmpty()) {
        LOG.warning("adversarial run " + run.executionId() + " regressed against " + report.getString(
            "baselineExecutionId") + ": " + regressions.encode());
      }
      l.run = run.completed(report, System.currentTimeMillis());
      return store.save(l.run);
    });
  }

  private void publish(Live l, String type, JsonObject data) {
    l.seq++;
    vertx.eventBus().publish(Addresses.adversarialEvents(l.run.executionId()), new JsonObject().put("seq", l.seq)
        .put("type", type).put("data", data));
  }

  private Future<JsonObject> get(JsonObject body) {
    String id = Fields.requiredString(body, "executionId", 64);
    Live l = live.get(id);
    if (l != null) {
      return Future.succeededFuture(l.toJson());
    }
    return store.get(id).map(found -> found.orElseThrow(() -> ApiException.notFound("unknown_run",
        "no adversarial run '" + id + "'")).toJson());
  }

  private Future<JsonObject> list(JsonObject body) {
    Integer limit = Fields.optionalInt(body, "limit", 1, 500);
    return store.list(limit == null ? 50 : limit).map(runs -> {
      JsonArray out = new JsonArray();
      for (AdversarialRun r : runs) {
        Live l = live.get(r.executionId());
        JsonObject j = l != null ? l.toJson() : r.toJson();
        JsonObject report = j.getJsonObject("report");
        if (report != null) {
          report.remove("findings");
        }
        out.add(j);
      }
      return new JsonObject().put("runs", out);
    });
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
}
