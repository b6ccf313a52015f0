package dev.argus.eval.online;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.EvalConf;
import dev.argus.eval.golden.BundledSets;
import dev.argus.eval.golden.GoldenRunner;
import dev.argus.eval.golden.GoldenSet;
import dev.argus.eval.judge.LlmJudge;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.HourlyPoint;
import dev.argus.llm.LlmClient;
import dev.argus.metrics.Metrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The evaluation capability on the bus ({@code argus.eval.*}): listens to {@code argus.runs.completed} and
 * {@code argus.decisions.created} ({@link Evaluator}), runs the hourly aggregation and regression rule every
 * {@code aggregateIntervalMs} ({@link Aggregator}), answers the read addresses ({@link EvalQueries}) and keeps the
 * golden sets ({@link GoldenRunner}). Deployed as a worker verticle: scoring never runs on an event loop.
 */
public final class EvaluationVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(EvaluationVerticle.class.getName());

  private final EvalConf conf;
  private final EvalStore store;
  private final LlmClient llm;
  private Evaluator evaluator;
  private Aggregator aggregator;
  private GoldenRunner golden;
  private EvalQueries queries;
  private long timer = -1;

  public EvaluationVerticle(EvalConf conf, EvalStore store, LlmClient llm) {
    this.conf = conf;
    this.store = store;
    this.llm = llm;
  }

  @Override
  public Future<?> start() {
    evaluator = new Evaluator(vertx, conf, store, new LlmJudge(llm, conf.judgeTimeoutMs(), conf.judgeMaxChars()));
    aggregator = new Aggregator(vertx, conf, store, Metrics.counter(vertx, "argus_eval_regressions",
        "Evaluation regressions detected (a metric's hour more than the threshold below its trailing mean)"));
    golden = new GoldenRunner(vertx, conf, store);
    queries = new EvalQueries(conf, store);
    List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
    var bus = vertx.eventBus();
    // a golden set waits for its runs wherever they ran; a run is evaluated once, on the node that drove it
    consumers.add(bus.consumer(Addresses.RUNS_COMPLETED, m -> golden.onRunCompleted(m.body())));
    consumers.add(bus.localConsumer(Addresses.RUNS_COMPLETED, m -> evaluator.onRunCompleted(m.body())));
    consumers.add(bus.localConsumer(Addresses.DECISIONS_CREATED, m -> evaluator.onDecision(m.body())));
    consumers.add(reply(Addresses.EVAL_RUN_GET, queries::run));
    consumers.add(reply(Addresses.EVAL_HISTORY, queries::history));
    consumers.add(reply(Addresses.EVAL_TREND, b -> queries.trend(b, System.currentTimeMillis())));
    consumers.add(reply(Addresses.EVAL_REGRESSIONS, queries::regressions));
    consumers.add(reply(Addresses.EVAL_STATS, b -> queries.stats().map(s -> s.put("evaluator", evaluator.counters())
        .put("lastAggregation", aggregator.lastRunMs() < 0 ? null : aggregator.lastRunMs()))));
    consumers.add(reply(Addresses.EVAL_AGGREGATE, b -> aggregator.run(b.getLong("now", System.currentTimeMillis()))));
    consumers.add(reply(Addresses.EVAL_SETS_LIST, b -> store.listSets()
        .map(l -> new JsonObject().put("sets", new JsonArray(new ArrayList<>(l))))));
    consumers.add(reply(Addresses.EVAL_SET_GET, b -> store.findSet(b.getString("name", ""))
        .compose(s -> s.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(
            ApiException.notFound("unknown_set", "no golden set '" + b.getString("name") + "'"))))));
    consumers.add(reply(Addresses.EVAL_SET_PUT, b -> {
      GoldenSet set = GoldenSet.fromJson(b, conf.maxSetCases());
      return store.saveSet(set.name(), set.toJson(), System.currentTimeMillis()).map(v -> set.toJson());
    }));
    consumers.add(reply(Addresses.EVAL_SET_DELETE, b -> store.deleteSet(b.getString("name", ""))
        .compose(d -> d ? Future.succeededFuture(new JsonObject().put("deleted", true))
            : Future.failedFuture(ApiException.notFound("unknown_set", "no golden set '" + b.getString("name") + "'")))));
    consumers.add(reply(Addresses.EVAL_SET_RUN, b -> golden.start(b.getString("name", ""), b.getString("baseline"))));
    consumers.add(reply(Addresses.EVAL_SET_RESULTS, queries::setResults));
    timer = vertx.setPeriodic(conf.aggregateIntervalMs(), id -> aggregator.run(System.currentTimeMillis())
        .onFailure(err -> LOG.log(Level.WARNING, "evaluation aggregation failed", err)));
    List<Future<?>> ready = new ArrayList<>();
    consumers.forEach(c -> ready.add(c.completion()));
    ready.add(BundledSets.seed(store, System.currentTimeMillis()));
    return Future.all(ready);
  }

  private MessageConsumer<JsonObject> reply(String address, Function<JsonObject, Future<JsonObject>> action) {
    return vertx.eventBus().consumer(address, (Message<JsonObject> m) -> {
      Future<JsonObject> f;
      try {
        f = action.apply(m.body() == null ? new JsonObject() : m.body());
      } catch (RuntimeException e) {
        f = Future.failedFuture(e);
      }
      f.onSuccess(m::reply).onFailure(err -> BusFailures.fail(m, err));
    });
  }

  @Override
  public Future<?> stop() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    return Future.succeededFuture();
  }

  /** The hour an instant falls in (for logs and tests). */
  static long hourOf(long ms) {
    return HourlyPoint.hourOf(ms);
  }
}
