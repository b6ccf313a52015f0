package dev.argus.eval.golden;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.EvalConf;
import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.score.ChatScores;
import dev.argus.eval.score.DecisionScores;
import dev.argus.eval.score.Metric;
import dev.argus.eval.score.Scorecard;
import dev.argus.eval.store.EvalStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs a golden set in the background, one case after the other: each question as a real chat run
 * ({@code argus.agent.run.start}, awaited through {@code argus.runs.completed}) scored like any run plus its
 * expected citations and key facts; each decision case through {@code argus.decide.*} against its expected outcome.
 * The result is stored at once as {@code running}, then with every case as {@code completed} (kept for comparison).
 * A case that fails is recorded with its reason and the run goes on.
 *
 * <p>Used from the evaluation verticle's context only.
 */
public final class GoldenRunner {

  private static final Logger LOG = Logger.getLogger(GoldenRunner.class.getName());

  private final Vertx vertx;
  private final EvalConf conf;
  private final EvalStore store;
  private final Map<String, Promise<Void>> waiting = new HashMap<>();

  public GoldenRunner(Vertx vertx, EvalConf conf, EvalStore store) {
    this.vertx = vertx;
    this.conf = conf;
    this.store = store;
  }

  /** {@code argus.runs.completed}: wakes a golden question waiting for its run. */
  public void onRunCompleted(JsonObject msg) {
    Promise<Void> p = waiting.remove(msg.getString("runId", ""));
    if (p != null) {
      p.tryComplete();
    }
  }

  /** Starts a run of the named set; completes with the stored {@code running} result. */
  public Future<JsonObject> start(String name, String baseline) {
    return store.findSet(name).compose(found -> {
      if (found.isEmpty()) {
        return Future.failedFuture(ApiException.notFound("unknown_set", "no golden set '" + name + "'"));
      }
      GoldenSet set = GoldenSet.fromJson(found.get(), Integer.MAX_VALUE);
      Future<Void> baselineCheck = baseline == null ? Future.succeededFuture()
          : store.findSetResult(baseline).compose(b -> b.isPresent() ? Future.<Void>succeededFuture()
              : Future.failedFuture(ApiException.notFound("unknown_result", "no set result '" + baseline + "'")));
      return baselineCheck.compose(v -> {
        String resultId = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        JsonObject running = new JsonObject().put("resultId", resultId).put("set", name).put("status", "running")
            .put("startedAt", now).put("baseline", baseline).put("cases", new JsonArray())
            .put("metrics", new JsonObject()).put("total", set.size());
        return store.saveSetResult(resultId, name, now, running).map(x -> {
          runAll(set, running.copy());
          return running;
        });
      });
    });
  }

  private void runAll(GoldenSet set, JsonObject result) {
    JsonArray cases = new JsonArray();
    Future<Void> chain = Future.succeededFuture();
    for (GoldenSet.Question q : set.questions()) {
      chain = chain.compose(v -> question(q).recover(err -> Future.succeededFuture(failedCase(q.id(), "question", err)))
          .map(c -> {
            cases.add(c);
            return null;
          }));
    }
    for (GoldenSet.DecisionCase d : set.decisions()) {
      chain = chain.compose(v -> decision(d).recover(err -> Future.succeededFuture(failedCase(d.id(), "decision", err)))
          .map(c -> {
            cases.add(c);
            return null;
          }));
    }
    chain.compose(v -> {
      result.put("status", "completed").put("finishedAt", System.currentTimeMillis()).put("cases", cases)
          .put("metrics", means(cases));
      return store.saveSetResult(result.getString("resultId") + "", result.getString("set"),
          result.getLong("startedAt"), result);
    }).onFailure(err -> LOG.log(Level.WARNING, "golden set run " + result.getString("resultId") + " failed", err));
  }

  private Future<JsonObject> question(GoldenSet.Question q) {
    String runId = "golden-" + UUID.randomUUID();
    Promise<Void> done = Promise.promise();
    waiting.put(runId, done);
    JsonObject start = new JsonObject().put("runId", runId).put("question", q.question());
    if (q.namespace() != null) {
      start.put("namespace", q.namespace());
    }
    if (q.profile() != null) {
      start.put("profile", q.profile());
    }
    return request(Addresses.AGENT_RUN_START, start, conf.goldenRunTimeoutMs())
        .compose(x -> done.future().timeout(conf.goldenRunTimeoutMs(), TimeUnit.MILLISECONDS))
        .compose(x -> request(Addresses.AGENT_RUN_GET, new JsonObject().put("runId", runId), conf.runFetchTimeoutMs()))
        .map(run -> {
          ChatRunView view = ChatRunView.fromRun(run);
          Map<Metric, Double> m = new LinkedHashMap<>(ChatScores.score(view).values());
          Double citations = GoldenScores.expectedCitationRecall(q.expectedCitations(), view);
          Double facts = GoldenScores.keyFactRecall(q.keyFacts(), view);
          if (citations != null) {
            m.put(Metric.EXPECTED_CITATION_RECALL, citations);
          }
          if (facts != null) {
            m.put(Metric.KEY_FACT_RECALL, facts);
          }
          return new JsonObject().put("id", q.id()).put("type", "question").put("runId", runId).put("status", "ok")
              .put("kind", view.kind()).put("metrics", Scorecard.withAggregate(m, null).toJson().getJsonObject("metrics"));
        })
        .onComplete(x -> waiting.remove(runId));
  }

  private Future<JsonObject> decision(GoldenSet.DecisionCase d) {
    boolean onboarding = "onboarding".equals(d.type());
    JsonObject req = new JsonObject().put(onboarding ? "sellerId" : "transactionId", d.subject());
    if (d.asOf() != null) {
      req.put("asOf", d.asOf());
    }
    return request(onboarding ? Addresses.DECIDE_ONBOARDING : Addresses.DECIDE_TRANSACTION, req,
        conf.goldenRunTimeoutMs()).map(decision -> {
          Map<Metric, Double> m = new LinkedHashMap<>(DecisionScores.score(decision).values());
          boolean correct = d.expectedOutcome().equals(decision.getString("outcome"));
          m.put(Metric.OUTCOME_ACCURACY, correct ? 1.0 : 0.0);
          return new JsonObject().put("id", d.id()).put("type", "decision").put("status", "ok")
              .put("decisionId", decision.getString("decisionId")).put("outcome", decision.getString("outcome"))
              .put("expectedOutcome", d.expectedOutcome())
              .put("metrics", Scorecard.withAggregate(m, null).toJson().getJsonObject("metrics"));
        });
  }

  private static JsonObject failedCase(String id, String type, Throwable err) {
    ApiException api = BusFailures.toApi(err);
    return new JsonObject().put("id", id).put("type", type).put("status", "failed")
        .put("reason", api.getMessage()).put("code", api.code()).put("metrics", new JsonObject());
  }

  /** Mean of each metric over the cases that have it; a failed case counts 0 for the aggregate. */
  static JsonObject means(JsonArray cases) {
    Map<String, double[]> acc = new LinkedHashMap<>();
    for (Object o : cases) {
      JsonObject c = (JsonObject) o;
      JsonObject m = c.getJsonObject("metrics", new JsonObject());
      if ("failed".equals(c.getString("status"))) {
        m = new JsonObject().put(Metric.AGGREGATE.wire(), 0.0);
      }
      for (String k : m.fieldNames()) {
        if (m.getValue(k) instanceof Number n) {
          double[] a = acc.computeIfAbsent(k, x -> new double[2]);
          a[0] += n.doubleValue();
          a[1]++;
        }
      }
    }
    JsonObject out = new JsonObject();
    acc.forEach((k, a) -> out.put(k, Math.round(a[0] / a[1] * 1_000_000) / 1_000_000.0));
    long failed = cases.stream().filter(o -> "failed".equals(((JsonObject) o).getString("status"))).count();
    return out.put("failedCases", (double) failed);
  }

  private Future<JsonObject> request(String address, JsonObject body, long timeoutMs) {
    return vertx.eventBus().<JsonObject>request(address, body, new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(m -> m.body());
  }
}
