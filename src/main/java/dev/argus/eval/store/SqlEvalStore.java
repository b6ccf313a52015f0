package dev.argus.eval.store;

import dev.argus.eval.score.Metric;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The SQL both evaluation stores share, written with {@code ?} placeholders; a dialect rewrites them
 * ({@link #sql(String)}) and decides how writes are serialized ({@link #write}). JSON is kept as text in both.
 */
abstract class SqlEvalStore implements EvalStore {

  private static final String UPSERT_RUN = "INSERT INTO eval_runs (run_id, kind, profile, created_at, aggregate, body) "
      + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET kind = excluded.kind, profile = excluded.profile, "
      + "created_at = excluded.created_at, aggregate = excluded.aggregate, body = excluded.body";
  private static final String DELETE_SCORES = "DELETE FROM eval_scores WHERE run_id = ?";
  private static final String INSERT_SCORE = "INSERT INTO eval_scores (run_id, metric, profile, created_at, value) "
      + "VALUES (?, ?, ?, ?, ?)";
  private static final String UPSERT_HOURLY = "INSERT INTO eval_hourly (profile, metric, hour_start, n, mean, min_value, "
      + "max_value) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (profile, metric, hour_start) DO UPDATE SET n = excluded.n, "
      + "mean = excluded.mean, min_value = excluded.min_value, max_value = excluded.max_value";
  private static final String INSERT_REGRESSION = "INSERT INTO eval_regressions (regression_id, profile, metric, "
      + "hour_start, last_value, baseline, drop_ratio, threshold, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
      + "ON CONFLICT (profile, metric, hour_start) DO NOTHING";
  private static final String UPSERT_SET = "INSERT INTO eval_sets (name, body, updated_at) VALUES (?, ?, ?) "
      + "ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at";

  final Database db;

  SqlEvalStore(Database db) {
    this.db = db;
  }

  /** The statement in the dialect's placeholder form. */
  abstract String sql(String statement);

  /** A floating-point column or expression as selected, read back exactly by {@link #dbl}. */
  abstract String num(String expr);

  /** A floating-point value selected through {@link #num} (a number, or its text), null when SQL NULL. */
  static Double dbl(Row r, String column) {
    Object v = r.getValue(column);
    if (v == null) {
      return null;
    }
    return v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString());
  }

  /** Runs one write (SQLite serializes its writers in process). */
  abstract <T> Future<T> write(java.util.function.Supplier<Future<T>> action);

  private Future<RowSet<Row>> read(String statement, Tuple args) {
    return db.pool().preparedQuery(sql(statement)).execute(args);
  }

  private <T> Future<T> tx(Function<SqlConnection, Future<T>> work) {
    return write(() -> db.inTransaction(work));
  }

  private Future<RowSet<Row>> exec(SqlConnection c, String statement, Tuple args) {
    return c.preparedQuery(sql(statement)).execute(args);
  }

  @Override
  public Future<Void> save(Evaluation e) {
    Double aggregate = e.scorecard().get(Metric.AGGREGATE);
    Tuple run = Tuple.of(e.runId(), e.kind(), e.profile(), e.createdAtMs(), aggregate, e.toJson().encode());
    List<Tuple> scores = new ArrayList<>();
    for (Map.Entry<Metric, Double> s : e.scorecard().values().entrySet()) {
      scores.add(Tuple.of(e.runId(), s.getKey().wire(), e.profile(), e.createdAtMs(), s.getValue()));
    }
    return tx(c -> exec(c, UPSERT_RUN, run)
        .compose(x -> exec(c, DELETE_SCORES, Tuple.of(e.runId())))
        .compose(x -> scores.isEmpty() ? Future.succeededFuture()
            : c.preparedQuery(sql(INSERT_SCORE)).executeBatch(scores).mapEmpty())
        .mapEmpty());
  }

  @Override
  public Future<Optional<Evaluation>> find(String runId) {
    return read("SELECT body FROM eval_runs WHERE run_id = ?", Tuple.of(runId)).map(rows -> {
      for (Row r : rows) {
        return Optional.of(Evaluation.fromJson(new JsonObject(r.getString("body"))));
      }
      return Optional.empty();
    });
  }

  @Override
  public Future<List<ScoreRow>> scores(String profile, String metric, long from, long to, int limit) {
    StringBuilder q = new StringBuilder("SELECT run_id, profile, metric, created_at, " + num("value") + " AS value FROM eval_scores "
        + "WHERE created_at >= ? AND created_at < ?");
    Tuple args = Tuple.of(from, to);
    filters(q, args, profile, metric);
    q.append(" ORDER BY created_at, run_id, metric LIMIT ?");
    args.addInteger(limit);
    return read(q.toString(), args).map(rows -> {
      List<ScoreRow> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new ScoreRow(r.getString("run_id"), r.getString("profile"), r.getString("metric"),
            r.getLong("created_at"), dbl(r, "value")));
      }
      return out;
    });
  }

  private static void filters(StringBuilder q, Tuple args, String profile, String metric) {
    if (profile != null) {
      q.append(" AND profile = ?");
      args.addString(profile);
    }
    if (metric != null) {
      q.append(" AND metric = ?");
      args.addString(metric);
    }
  }

  @Override
  public Future<List<HourlyPoint>> computeHourly(long from, long to) {
    String q = "SELECT profile, metric, (created_at / " + HourlyPoint.HOUR_MS + ") * " + HourlyPoint.HOUR_MS
        + " AS hour_start, COUNT(*) AS n, " + num("AVG(value)") + " AS mean, " + num("MIN(value)") + " AS min_value, "
        + num("MAX(value)") + " AS max_value "
        + "FROM eval_scores WHERE created_at >= ? AND created_at < ? GROUP BY profile, metric, hour_start "
        + "ORDER BY hour_start, profile, metric";
    return read(q, Tuple.of(from, to)).map(rows -> {
      List<HourlyPoint> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new HourlyPoint(r.getString("profile"), r.getString("metric"), ((Number) r.getValue("hour_start")).longValue(),
            ((Number) r.getValue("n")).intValue(), dbl(r, "mean"), dbl(r, "min_value"), dbl(r, "max_value")));
      }
      return out;
    });
  }

  @Override
  public Future<Void> upsertHourly(List<HourlyPoint> points) {
    if (points.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Tuple> rows = new ArrayList<>();
    for (HourlyPoint p : points) {
      rows.add(Tuple.of(p.profile(), p.metric(), p.hourStartMs(), p.n(), p.mean(), p.min(), p.max()));
    }
    return tx(c -> c.preparedQuery(sql(UPSERT_HOURLY)).executeBatch(rows).mapEmpty());
  }

  @Override
  public Future<List<HourlyPoint>> hourly(String profile, String metric, long from, long to) {
    StringBuilder q = new StringBuilder("SELECT profile, metric, hour_start, n, " + num("mean") + " AS mean, " + num("min_value") + " AS min_value, "
        + num("max_value") + " AS max_value "
        + "FROM eval_hourly WHERE hour_start >= ? AND hour_start < ?");
    Tuple args = Tuple.of(from, to);
    filters(q, args, profile, metric);
    q.append(" ORDER BY hour_start, profile, metric");
    return read(q.toString(), args).map(rows -> {
      List<HourlyPoint> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new HourlyPoint(r.getString("profile"), r.getString("metric"), r.getLong("hour_start"),
            r.getInteger("n"), dbl(r, "mean"), dbl(r, "min_value"), dbl(r, "max_value")));
      }
      return out;
    });
  }

  @Override
  public Future<Boolean> saveRegression(Regression g) {
    Tuple row = Tuple.of(g.id(), g.profile(), g.metric(), g.hourStartMs(), g.lastValue(), g.baseline(), g.dropRatio())
        .addDouble(g.threshold()).addLong(g.createdAtMs());
    return tx(c -> exec(c, INSERT_REGRESSION, row)).map(rs -> rs.rowCount() > 0);
  }

  @Override
  public Future<List<Regression>> regressions(String profile, long from, long to, int limit) {
    StringBuilder q = new StringBuilder("SELECT regression_id, profile, metric, hour_start, " + num("last_value")
        + " AS last_value, " + num("baseline") + " AS baseline, " + num("drop_ratio") + " AS drop_ratio, "
        + num("threshold") + " AS threshold, created_at FROM eval_regressions WHERE created_at >= ? AND created_at < ?");
    Tuple args = Tuple.of(from, to);
    filters(q, args, profile, null);
    q.append(" ORDER BY created_at DESC, hour_start DESC, metric LIMIT ?");
    args.addInteger(limit);
    return read(q.toString(), args).map(rows -> {
      List<Regression> out = new ArrayList<>();
      for (Row r : rows) {
        out.add(new Regression(r.getString("regression_id"), r.getString("profile"), r.getString("metric"),
            r.getLong("hour_start"), dbl(r, "last_value"), dbl(r, "baseline"), dbl(r, "drop_ratio"),
            dbl(r, "threshold"), r.getLong("created_at")));
      }
      return out;
    });
  }

  @Override
  public Future<JsonObject> stats() {
    Future<RowSet<Row>> byKind = read("SELECT kind, COUNT(*) AS n, " + num("AVG(aggregate)") + " AS mean FROM eval_runs GROUP BY kind "
        + "ORDER BY kind", Tuple.tuple());
    Future<RowSet<Row>> byProfile = read("SELECT profile, COUNT(*) AS n, " + num("AVG(aggregate)") + " AS mean FROM eval_runs "
        + "GROUP BY profile ORDER BY profile", Tuple.tuple());
    Future<RowSet<Row>> regressions = read("SELECT COUNT(*) AS n FROM eval_regressions", Tuple.tuple());
    return Future.all(byKind, byProfile, regressions).map(x -> {
      long total = 0;
      JsonObject kinds = new JsonObject();
      for (Row r : byKind.result()) {
        total += r.getLong("n");
        kinds.put(r.getString("kind"), group(r));
      }
      JsonObject profiles = new JsonObject();
      for (Row r : byProfile.result()) {
        profiles.put(r.getString("profile"), group(r));
      }
      long regs = 0;
      for (Row r : regressions.result()) {
        regs = r.getLong("n");
      }
      return new JsonObject().put("evaluated", total).put("byKind", kinds).put("byProfile", profiles)
          .put("regressions", regs);
    });
  }

  private JsonObject group(Row r) {
    return new JsonObject().put("count", r.getLong("n")).put("meanAggregate", dbl(r, "mean"));
  }

  @Override
  public Future<Void> saveSet(String name, JsonObject body, long updatedAtMs) {
    return tx(c -> exec(c, UPSERT_SET, Tuple.of(name, body.encode(), updatedAtMs))).mapEmpty();
  }

  @Override
  public Future<Optional<JsonObject>> findSet(String name) {
    return read("SELECT body FROM eval_sets WHERE name = ?", Tuple.of(name)).map(SqlEvalStore::firstBody);
  }

  @Override
  public Future<List<JsonObject>> listSets() {
    return read("SELECT name, body, updated_at FROM eval_sets ORDER BY name", Tuple.tuple()).map(rows -> {
      List<JsonObject> out = new ArrayList<>();
      for (Row r : rows) {
        JsonObject body = new JsonObject(r.getString("body"));
        out.add(new JsonObject().put("name", r.getString("name"))
            .put("description", body.getString("description"))
            .put("questions", body.getJsonArray("questions", new io.vertx.core.json.JsonArray()).size())
            .put("decisions", body.getJsonArray("decisions", new io.vertx.core.json.JsonArray()).size())
            .put("updatedAt", r.getLong("updated_at")));
      }
      return out;
    });
  }

  @Override
  public Future<Boolean> deleteSet(String name) {
    return tx(c -> exec(c, "DELETE FROM eval_sets WHERE name = ?", Tuple.of(name))).map(rs -> rs.rowCount() > 0);
  }

  @Override
  public Future<Void> saveSetResult(String resultId, String setName, long createdAtMs, JsonObject body) {
    return tx(c -> exec(c, "INSERT INTO eval_set_results (result_id, set_name, created_at, body) VALUES (?, ?, ?, ?) "
        + "ON CONFLICT (result_id) DO UPDATE SET set_name = excluded.set_name, created_at = excluded.created_at, "
        + "body = excluded.body",
        Tuple.of(resultId, setName, createdAtMs, body.encode()))).mapEmpty();
  }

  @Override
  public Future<Optional<JsonObject>> findSetResult(String resultId) {
    return read("SELECT body FROM eval_set_results WHERE result_id = ?", Tuple.of(resultId))
        .map(SqlEvalStore::firstBody);
  }

  @Override
  public Future<List<JsonObject>> setResults(String setName, int limit) {
    return read("SELECT body FROM eval_set_results WHERE set_name = ? ORDER BY created_at DESC, result_id DESC LIMIT ?",
        Tuple.of(setName, limit)).map(rows -> {
          List<JsonObject> out = new ArrayList<>();
          for (Row r : rows) {
            out.add(new JsonObject(r.getString("body")));
          }
          return out;
        });
  }

  private static Optional<JsonObject> firstBody(RowSet<Row> rows) {
    for (Row r : rows) {
      return Optional.of(new JsonObject(r.getString("body")));
    }
    return Optional.empty();
  }
}
