package dev.argus.eval.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Optional;

/**
 * Evaluations, their scores, hourly aggregates, regressions, golden sets and golden-set results. Two implementations
 * (embedded SQLite, PostgreSQL) pass one contract suite ({@code EvalStoreContract}); schema {@code V11__evaluation.sql}.
 * Every method is non-blocking. Time ranges are {@code [from, to)} in epoch milliseconds.
 */
public interface EvalStore {

  /** Inserts or replaces the evaluation of a run and all its scores, in one transaction. */
  Future<Void> save(Evaluation evaluation);

  Future<Optional<Evaluation>> find(String runId);

  /** Scores evaluated in {@code [from, to)}, optionally of one profile and one metric, oldest first, at most {@code limit}. */
  Future<List<ScoreRow>> scores(String profile, String metric, long from, long to, int limit);

  /**
   * Aggregates the stored scores evaluated in {@code [from, to)} per profile, metric and UTC hour (count, mean, min,
   * max), straight from the scores (so computing it again gives the same points).
   */
  Future<List<HourlyPoint>> computeHourly(long from, long to);

  /** Inserts or replaces hourly aggregates (idempotent: the key is profile, metric and hour). */
  Future<Void> upsertHourly(List<HourlyPoint> points);

  /** Hourly aggregates with {@code hourStart} in {@code [from, to)}, optionally of one profile and metric, oldest first. */
  Future<List<HourlyPoint>> hourly(String profile, String metric, long from, long to);

  /** Records a regression; completes with false when one for that profile, metric and hour exists already. */
  Future<Boolean> saveRegression(Regression regression);

  /** The newest regressions detected in {@code [from, to)}, optionally of one profile, at most {@code limit}. */
  Future<List<Regression>> regressions(String profile, long from, long to, int limit);

  /** Counts and mean aggregate per kind and profile: {@code {evaluated, byKind: {kind: {count, meanAggregate}}, byProfile: {...}}}. */
  Future<JsonObject> stats();

  /** Inserts or replaces a golden set's JSON by name. */
  Future<Void> saveSet(String name, JsonObject body, long updatedAtMs);

  Future<Optional<JsonObject>> findSet(String name);

  /** Every set's name, case counts and update time, by name. */
  Future<List<JsonObject>> listSets();

  Future<Boolean> deleteSet(String name);

  /** Inserts or replaces a result (a run is stored as {@code running}, then again when it completes). */
  Future<Void> saveSetResult(String resultId, String setName, long createdAtMs, JsonObject body);

  Future<Optional<JsonObject>> findSetResult(String resultId);

  /** The newest results of one set (whole bodies), at most {@code limit}. */
  Future<List<JsonObject>> setResults(String setName, int limit);
}
