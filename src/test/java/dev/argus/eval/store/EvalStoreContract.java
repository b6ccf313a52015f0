package dev.argus.eval.store;

import dev.argus.config.EvalConf;
import dev.argus.config.Settings;
import dev.argus.eval.online.Aggregator;
import dev.argus.eval.score.Metric;
import dev.argus.eval.score.Scorecard;
import dev.argus.store.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The behaviour every {@link EvalStore} must have, on a real database of each dialect, and the hourly aggregation
 * and regression rule run over it ({@link Aggregator}) across hour and day boundaries.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EvalStoreContract {

  private static final double EPS = 1e-9;
  protected Vertx vertx;
  protected Database db;
  protected EvalStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = EvalStores.create(db);
  }

  @BeforeEach
  void empty() throws Exception {
    for (String t : List.of("eval_runs", "eval_scores", "eval_hourly", "eval_regressions", "eval_sets",
        "eval_set_results")) {
      await(db.pool().query("DELETE FROM " + t).execute());
    }
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  static long at(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private Evaluation eval(String runId, String profile, long at, double groundedness) {
    return new Evaluation(runId, Evaluation.CHAT, profile, at,
        Scorecard.withAggregate(Map.of(Metric.GROUNDEDNESS, groundedness), new JsonObject()),
        new JsonObject().put("note", "x"));
  }

  @Test
  void savesFindsAndReplacesAnEvaluation() throws Exception {
    Evaluation e = eval("r1", "assistant", 1000, 0.5);
    await(store.save(e));
    assertEquals(e.toJson(), await(store.find("r1")).orElseThrow().toJson());
    await(store.save(eval("r1", "assistant", 2000, 0.75)));
    assertEquals(0.75, await(store.find("r1")).orElseThrow().scorecard().get(Metric.GROUNDEDNESS), EPS);
    // scores replaced, not added: groundedness and aggregate, once each
    List<ScoreRow> rows = await(store.scores(null, null, 0, Long.MAX_VALUE, 100));
    assertEquals(2, rows.size());
    assertTrue(await(store.find("nope")).isEmpty());
  }

  @Test
  void scoresFilterByProfileMetricAndRange() throws Exception {
    await(store.save(eval("a", "assistant", 1000, 0.1)));
    await(store.save(eval("b", "analyst", 2000, 0.2)));
    await(store.save(eval("c", "assistant", 3000, 0.3)));
    List<ScoreRow> rows = await(store.scores("assistant", "groundedness", 1000, 3000, 100));
    assertEquals(List.of("a"), rows.stream().map(ScoreRow::runId).toList());
    assertEquals(3, await(store.scores(null, "groundedness", 0, 10_000, 100)).size());
    assertEquals(2, await(store.scores(null, "groundedness", 0, 10_000, 2)).size());
  }

  /**
   * Scores at 23:10, 23:59:59.999 (hour 23 of 1 March), 00:00:00.000 and 00:30 (hour 0 of 2 March):
   * hour 23 mean (0.2 + 0.4) / 2 = 0.3, hour 0 mean (0.8 + 1.0) / 2 = 0.9; recomputing changes nothing.
   */
  @Test
  void hourlyAggregatesSplitAtHourAndDayBoundariesAndAreIdempotent() throws Exception {
    await(store.save(eval("h1", "assistant", at("2026-03-01T23:10:00Z"), 0.2)));
    await(store.save(eval("h2", "assistant", at("2026-03-01T23:59:59.999Z"), 0.4)));
    await(store.save(eval("h3", "assistant", at("2026-03-02T00:00:00Z"), 0.8)));
    await(store.save(eval("h4", "assistant", at("2026-03-02T00:30:00Z"), 1.0)));
    Aggregator agg = new Aggregator(vertx, conf(Map.of()), store, counter());
    long now = at("2026-03-02T00:45:00Z");
    JsonObject first = await(agg.run(now));
    // groundedness and aggregate, two hours each
    assertEquals(4, first.getInteger("points"));
    List<HourlyPoint> pts = await(store.hourly("assistant", "groundedness", 0, Long.MAX_VALUE));
    assertEquals(2, pts.size());
    assertEquals(at("2026-03-01T23:00:00Z"), pts.get(0).hourStartMs());
    assertEquals(2, pts.get(0).n());
    assertEquals(0.3, pts.get(0).mean(), EPS);
    assertEquals(0.2, pts.get(0).min(), EPS);
    assertEquals(0.4, pts.get(0).max(), EPS);
    assertEquals(at("2026-03-02T00:00:00Z"), pts.get(1).hourStartMs());
    assertEquals(0.9, pts.get(1).mean(), EPS);
    await(agg.run(now));
    assertEquals(pts, await(store.hourly("assistant", "groundedness", 0, Long.MAX_VALUE)));
    // a late evaluation in hour 0 is folded in at the next pass: (0.8 + 1.0 + 0.3) / 3 = 0.7
    await(store.save(eval("h5", "assistant", at("2026-03-02T00:40:00Z"), 0.3)));
    await(agg.run(now));
    assertEquals(0.7, await(store.hourly("assistant", "groundedness", at("2026-03-02T00:00:00Z"), Long.MAX_VALUE))
        .get(0).mean(), EPS);
  }

  /**
   * Baseline: six hours 04:00..09:00 with groundedness 0.8 each; hour 10:00 at 0.6. 1 - 0.6 / 0.8 = 0.25 > 0.15 →
   * a regression (stored once, published, counted). With hour 10 at 0.7: 1 - 0.7 / 0.8 = 0.125 ≤ 0.15 → none.
   */
  @Test
  void theRegressionRuleFiresOnceOnAConstructedHistory() throws Exception {
    for (int h = 4; h <= 9; h++) {
      await(store.save(eval("b" + h, "assistant", at(String.format("2026-03-05T%02d:20:00Z", h)), 0.8)));
    }
    await(store.save(eval("last", "assistant", at("2026-03-05T10:20:00Z"), 0.6)));
    Counter counter = counter();
    List<JsonObject> published = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(dev.argus.bus.Addresses.EVAL_REGRESSION, m -> published.add(m.body()));
    Aggregator agg = new Aggregator(vertx, conf(Map.of("recomputeHours", 12)), store, counter);
    long now = at("2026-03-05T11:05:00Z");
    JsonObject out = await(agg.run(now));
    List<Regression> regs = await(store.regressions(null, 0, Long.MAX_VALUE, 10));
    // groundedness and the aggregate (here equal to it) both fell
    assertEquals(2, regs.size());
    Regression g = regs.stream().filter(r -> r.metric().equals("groundedness")).findFirst().orElseThrow();
    assertEquals(0.6, g.lastValue(), EPS);
    assertEquals(0.8, g.baseline(), EPS);
    assertEquals(0.25, g.dropRatio(), EPS);
    assertEquals(at("2026-03-05T10:00:00Z"), g.hourStartMs());
    assertEquals(2, out.getJsonArray("regressions").size());
    assertEquals(2.0, counter.count(), EPS);
    // the second pass finds the same hour: nothing new stored, counted or published
    JsonObject again = await(agg.run(now + 60_000));
    assertEquals(0, again.getJsonArray("regressions").size());
    assertEquals(2, await(store.regressions(null, 0, Long.MAX_VALUE, 10)).size());
    assertEquals(2.0, counter.count(), EPS);
    Thread.sleep(100);
    assertEquals(2, published.size());

    await(store.save(eval("last", "assistant", at("2026-03-05T10:20:00Z"), 0.7)));
    await(db.pool().query("DELETE FROM eval_regressions").execute());
    assertEquals(0, await(agg.run(now)).getJsonArray("regressions").size());
    // too little history: with minBaselineHours 7 the six hours are not enough
    await(store.save(eval("last", "assistant", at("2026-03-05T10:20:00Z"), 0.1)));
    Aggregator strict = new Aggregator(vertx, conf(Map.of("recomputeHours", 12, "minBaselineHours", 7)), store, counter());
    assertEquals(0, await(strict.run(now)).getJsonArray("regressions").size());
  }

  @Test
  void statsCountByKindAndProfile() throws Exception {
    await(store.save(eval("s1", "assistant", 1, 0.5)));
    await(store.save(eval("s2", "assistant", 2, 1.0)));
    await(store.save(new Evaluation("d1", Evaluation.DECISION, "onboarding", 3,
        Scorecard.withAggregate(Map.of(Metric.CITATION_VALIDITY_RATE, 0.2), null), null)));
    JsonObject s = await(store.stats());
    assertEquals(3, s.getLong("evaluated"));
    assertEquals(2, s.getJsonObject("byKind").getJsonObject("chat").getLong("count"));
    assertEquals(0.75, s.getJsonObject("byKind").getJsonObject("chat").getDouble("meanAggregate"), EPS);
    assertEquals(0.2, s.getJsonObject("byProfile").getJsonObject("onboarding").getDouble("meanAggregate"), EPS);
  }

  @Test
  void keepsGoldenSetsAndTheirResults() throws Exception {
    JsonObject set = new JsonObject().put("name", "kb").put("description", "d")
        .put("questions", new io.vertx.core.json.JsonArray().add(new JsonObject().put("question", "q")));
    await(store.saveSet("kb", set, 10));
    assertEquals(set, await(store.findSet("kb")).orElseThrow());
    await(store.saveSet("kb", set.copy().put("description", "e"), 20));
    List<JsonObject> sets = await(store.listSets());
    assertEquals(1, sets.size());
    assertEquals("e", sets.get(0).getString("description"));
    assertEquals(1, sets.get(0).getInteger("questions"));
    await(store.saveSetResult("r1", "kb", 100, new JsonObject().put("resultId", "r1")));
    await(store.saveSetResult("r2", "kb", 200, new JsonObject().put("resultId", "r2")));
    assertEquals(List.of("r2", "r1"), await(store.setResults("kb", 10)).stream().map(j -> j.getString("resultId")).toList());
    await(store.saveSetResult("r1", "kb", 100, new JsonObject().put("resultId", "r1").put("status", "completed")))
        ;
    assertEquals("completed", await(store.findSetResult("r1")).orElseThrow().getString("status"));
    assertTrue(await(store.deleteSet("kb")));
    assertFalse(await(store.deleteSet("kb")));
    assertTrue(await(store.findSet("kb")).isEmpty());
  }

  @Test
  void concurrentSavesAllLand() throws Exception {
    List<Future<Void>> all = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      all.add(store.save(eval(UUID.randomUUID().toString(), "assistant", i, i / 40.0)));
    }
    await(Future.all(all));
    assertEquals(40, await(store.stats()).getLong("evaluated"));
  }

  private static Counter counter() {
    return Counter.builder("test_regressions").register(new SimpleMeterRegistry());
  }

  private static EvalConf conf(Map<String, Object> overrides) {
    return EvalConf.from(new Settings("eval", new JsonObject(new java.util.HashMap<>(overrides))));
  }
}
