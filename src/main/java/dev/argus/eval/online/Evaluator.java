package dev.argus.eval.online;

import dev.argus.bus.Addresses;
import dev.argus.config.EvalConf;
import dev.argus.eval.judge.JudgeVerdict;
import dev.argus.eval.judge.LlmJudge;
import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.score.ChatScores;
import dev.argus.eval.score.DecisionScores;
import dev.argus.eval.score.Metric;
import dev.argus.eval.score.Scorecard;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.Evaluation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Evaluates finished runs and decisions off the answer's path: a completion only enqueues work (bounded:
 * {@code maxConcurrent} at once, {@code maxQueued} waiting, more dropped and counted); the run is read over the bus
 * ({@code argus.agent.run.get}), scored ({@link ChatScores}, {@link DecisionScores}, the {@link LlmJudge} when an LLM is
 * configured), stored and announced on {@code argus.eval.evaluated}. A failure is logged and counted, never
 * propagated: the run or decision it was about is already answered.
 *
 * <p>Used from the evaluation verticle's context only.
 */
public final class Evaluator {

  private static final Logger LOG = Logger.getLogger(Evaluator.class.getName());

  private final Vertx vertx;
  private final EvalConf conf;
  private final EvalStore store;
  private final LlmJudge judge;
  private final ArrayDeque<Supplier<Future<Void>>> queue = new ArrayDeque<>();
  private int running;
  final AtomicLong evaluated = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong dropped = new AtomicLong();
  final AtomicLong skipped = new AtomicLong();
  final AtomicLong judged = new AtomicLong();
  final AtomicLong judgeSkipped = new AtomicLong();
  private long totalNanos;

  public Evaluator(Vertx vertx, EvalConf conf, EvalStore store, LlmJudge judge) {
    this.vertx = vertx;
    this.conf = conf;
    this.store = store;
    this.judge = judge;
  }

  /** {@code argus.runs.completed}: evaluates the run later, unless evaluation is off or the run did not complete. */
  public void onRunCompleted(JsonObject msg) {
    String runId = msg.getString("runId");
    if (!conf.enabled() || runId == null) {
      return;
    }
    if (msg.getString("status") != null && !"completed".equals(msg.getString("status"))) {
      skipped.incrementAndGet();
      return;
    }
    enqueue(() -> evaluateRun(runId));
  }

  /** {@code argus.decisions.created}: evaluates the decision later. */
  public void onDecision(JsonObject decision) {
    if (!conf.enabled()) {
      return;
    }
    enqueue(() -> evaluateDecision(decision));
  }

  private void enqueue(Supplier<Future<Void>> work) {
    if (running < conf.maxConcurrent()) {
      start(work);
    } else if (queue.size() < conf.maxQueued()) {
      queue.add(work);
    } else {
      dropped.incrementAndGet();
    }
  }

  private void start(Supplier<Future<Void>> work) {
    running++;
    long t0 = System.nanoTime();
    Future<Void> f;
    try {
      f = work.get();
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onComplete(ar -> {
      running--;
      totalNanos += System.nanoTime() - t0;
      if (ar.succeeded()) {
        evaluated.incrementAndGet();
      } else {
        failed.incrementAndGet();
        LOG.log(Level.WARNING, "evaluation failed (the run is unaffected): " + ar.cause().getMessage());
      }
      Supplier<Future<Void>> next = queue.poll();
      if (next != null) {
        start(next);
      }
    });
  }

  /** Scores one stored run (reads it over the bus), judges it when an LLM is configured, stores the evaluation. */
  public Future<Void> evaluateRun(String runId) {
    return vertx.eventBus().<JsonObject>request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", runId),
            new DeliveryOptions().setSendTimeout(conf.runFetchTimeoutMs()))
        .compose(reply -> {
          JsonObject run = reply.body();
          if (run.getJsonObject("result", new JsonObject()).getBoolean("cached", false)) {
            // a cached answer repeats a run evaluated already, and carries none of its evidence
            skipped.incrementAndGet();
            return Future.succeededFuture();
          }
          ChatRunView view = ChatRunView.fromRun(run);
          Scorecard lexical = ChatScores.score(view);
          if (lexical.values().isEmpty()) {
            skipped.incrementAndGet();
            return Future.succeededFuture();
          }
          Future<JudgeVerdict> verdict = "off".equals(conf.judge()) || view.refused()
              ? Future.succeededFuture(JudgeVerdict.skipped("off".equals(conf.judge()) ? "judge is off"
                  : "refusals are not judged"))
              : judge.judge(vertx, view);
          return verdict.compose(v -> {
            if (!v.scores().isEmpty()) {
              judged.incrementAndGet();
            } else {
              judgeSkipped.incrementAndGet();
            }
            Map<Metric, Double> all = new EnumMap<>(lexical.values());
            all.putAll(v.scores());
            Scorecard card = Scorecard.withAggregate(all, lexical.notes());
            JsonObject details = new JsonObject().put("judge", v.toJson())
                .put("kind", view.kind()).put("contextChunks", view.context().size());
            return save(new Evaluation(runId, Evaluation.CHAT, view.profile(), System.currentTimeMillis(), card, details));
          });
        });
  }

  /** Scores one decision and stores the evaluation under its decision id (its run id when it has none). */
  public Future<Void> evaluateDecision(JsonObject decision) {
    String id = decision.getString("decisionId", decision.getString("runId"));
    if (id == null) {
      return Future.failedFuture(new IllegalArgumentException("decision without runId or decisionId"));
    }
    Scorecard card = DecisionScores.score(decision);
    JsonObject details = new JsonObject().put("decisionId", decision.getString("decisionId"))
        .put("runId", decision.getString("runId"))
        .put("subjectId", decision.getString("subjectId")).put("outcome", decision.getString("outcome"))
        .put("status", decision.getString("status"));
    return save(new Evaluation(id, Evaluation.DECISION, decision.getString("profile", "decision"),
        System.currentTimeMillis(), card, details));
  }

  private Future<Void> save(Evaluation e) {
    return store.save(e).onSuccess(v -> vertx.eventBus().publish(Addresses.EVAL_EVALUATED, e.toJson()));
  }

  public JsonObject counters() {
    long done = evaluated.get() + failed.get();
    return new JsonObject().put("evaluated", evaluated.get()).put("failed", failed.get())
        .put("dropped", dropped.get()).put("skipped", skipped.get()).put("judged", judged.get())
        .put("judgeSkipped", judgeSkipped.get()).put("running", running).put("queued", queue.size())
        .put("meanEvaluationMs", done == 0 ? 0.0 : totalNanos / 1e6 / done);
  }
}
