package dev.argus.decide.store;

import dev.argus.common.ApiException;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decision store both dialects share: statements are written with {@code ?} placeholders and the dialect turns
 * them into its own ({@link #sql}). Decisions are only ever inserted (the tables' triggers refuse the rest).
 */
abstract class SqlDecisionStore implements DecisionStore {

  static final String INSERT_DECISION = "INSERT INTO decisions (decision_id, profile, subject_id, outcome, status, "
      + "risk_score, confidence, created_at, corrects_decision_id, run_id, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  static final String INSERT_REVIEW = "INSERT INTO reviews (review_id, decision_id, profile, subject_id, outcome, "
      + "risk_score, confidence, status, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)";
  static final String REVIEW_COLUMNS = "review_id, decision_id, profile, subject_id, outcome, risk_score, confidence, "
      + "status, assignee, claim_expires_at, created_at, due_at, completed_at, action, analyst, reason, new_decision_id";

  final Database db;

  SqlDecisionStore(Database db) {
    this.db = db;
  }

  /** The statement in the dialect's placeholder syntax. */
  abstract String sql(String statement);

  private Future<RowSet<Row>> run(SqlClient client, String statement, Tuple params) {
    return client.preparedQuery(sql(statement)).execute(params);
  }

  private static Tuple decisionRow(JsonObject d) {
    return Tuple.tuple().addString(d.getString("decisionId")).addString(d.getString("profile"))
        .addString(d.getString("subjectId")).addString(d.getString("outcome")).addString(d.getString("status"))
        .addDouble(d.getDouble("riskScore", 0.0)).addDouble(d.getDouble("confidence", 0.0))
        .addLong(d.getLong("createdAtMs")).addString(d.getString("correctsDecisionId"))
        .addString(d.getString("runId")).addString(d.encode());
  }

  private static Tuple reviewRow(JsonObject r) {
    return Tuple.tuple().addString(r.getString("reviewId")).addString(r.getString("decisionId"))
        .addString(r.getString("profile")).addString(r.getString("subjectId")).addString(r.getString("outcome"))
        .addDouble(r.getDouble("riskScore", 0.0)).addDouble(r.getDouble("confidence", 0.0))
        .addLong(r.getLong("createdAtMs")).addLong(r.getLong("dueAtMs"));
  }

  @Override
  public Future<Void> append(JsonObject decision) {
    return run(db.pool(), INSERT_DECISION, decisionRow(decision)).<Void>mapEmpty().recover(err -> oncePerRun(decision, err));
  }

  @Override
  public Future<Void> appendWithReview(JsonObject decision, JsonObject review) {
    return db.inTransaction(c -> run(c, INSERT_DECISION, decisionRow(decision))
        .compose(x -> run(c, INSERT_REVIEW, reviewRow(review)))).<Void>mapEmpty()
        .recover(err -> oncePerRun(decision, err));
  }

  /**
   * A run records at most one decision (migration V14_1: a unique index on PostgreSQL, a trigger on SQLite), so a
   * decision retried or taken over after a node died is not recorded twice: 409 {@code duplicate_run}.
   */
  private static Future<Void> oncePerRun(JsonObject decision, Throwable err) {
    String m = String.valueOf(err.getMessage());
    if (m.contains("decisions_run_once") || m.contains("decisions.run_id")) {
      return Future.failedFuture(new ApiException(409, "duplicate_run", "run " + decision.getString("runId")
          + " already recorded a decision"));
    }
    return Future.failedFuture(err);
  }

  @Override
  public Future<Optional<JsonObject>> get(String decisionId) {
    return run(db.pool(), "SELECT body FROM decisions WHERE decision_id = ?", Tuple.of(decisionId))
        .map(rows -> rows.size() == 0 ? Optional.empty()
            : Optional.of(new JsonObject(rows.iterator().next().getString("body"))));
  }

  @Override
  public Future<Optional<JsonObject>> byRun(String runId) {
    return run(db.pool(), "SELECT body FROM decisions WHERE run_id = ? AND corrects_decision_id IS NULL",
        Tuple.of(runId)).map(rows -> rows.size() == 0 ? Optional.empty()
            : Optional.of(new JsonObject(rows.iterator().next().getString("body"))));
  }

  @Override
  public Future<List<JsonObject>> list(DecisionQuery q) {
    StringBuilder s = new StringBuilder("SELECT body FROM decisions WHERE 1 = 1");
    Tuple t = Tuple.tuple();
    if (q.subject() != null) {
      s.append(" AND subject_id = ?");
      t.addString(q.subject());
    }
    if (q.outcome() != null) {
      s.append(" AND outcome = ?");
      t.addString(q.outcome());
    }
    if (q.status() != null) {
      s.append(" AND status = ?");
      t.addString(q.status());
    }
    if (q.profile() != null) {
      s.append(" AND profile = ?");
      t.addString(q.profile());
    }
    if (q.from() != null) {
      s.append(" AND created_at >= ?");
      t.addLong(q.from());
    }
    if (q.to() != null) {
      s.append(" AND created_at <= ?");
      t.addLong(q.to());
    }
    s.append(" ORDER BY seq DESC LIMIT ?");
    t.addInteger(q.limit());
    return run(db.pool(), s.toString(), t).map(rows -> {
      List<JsonObject> out = new ArrayList<>();
      rows.forEach(r -> out.add(new JsonObject(r.getString("body"))));
      return out;
    });
  }

  @Override
  public Future<List<String>> correctedBy(String decisionId) {
    return run(db.pool(), "SELECT decision_id FROM decisions WHERE corrects_decision_id = ? ORDER BY seq",
        Tuple.of(decisionId)).map(rows -> {
          List<String> out = new ArrayList<>();
          rows.forEach(r -> out.add(r.getString("decision_id")));
          return out;
        });
  }

  static JsonObject review(Row r) {
    return new JsonObject().put("reviewId", r.getString("review_id")).put("decisionId", r.getString("decision_id"))
        .put("profile", r.getString("profile")).put("subjectId", r.getString("subject_id"))
        .put("outcome", r.getString("outcome")).put("riskScore", r.getDouble("risk_score"))
        .put("confidence", r.getDouble("confidence")).put("status", r.getString("status"))
        .put("assignee", r.getString("assignee")).put("claimExpiresAtMs", r.getLong("claim_expires_at"))
        .put("createdAtMs", r.getLong("created_at")).put("dueAtMs", r.getLong("due_at"))
        .put("completedAtMs", r.getLong("completed_at")).put("action", r.getString("action"))
        .put("analyst", r.getString("analyst")).put("reason", r.getString("reason"))
        .put("newDecisionId", r.getString("new_decision_id"));
  }

  @Override
  public Future<List<JsonObject>> reviews(String status, String sort, int limit) {
    String order = "confidence".equals(sort) ? "confidence ASC, created_at ASC" : "created_at ASC";
    return run(db.pool(), "SELECT " + REVIEW_COLUMNS + " FROM reviews WHERE status = ? ORDER BY " + order + " LIMIT ?",
        Tuple.of(status, limit)).map(rows -> {
          List<JsonObject> out = new ArrayList<>();
          rows.forEach(r -> out.add(review(r)));
          return out;
        });
  }

  @Override
  public Future<Optional<JsonObject>> review(String reviewId) {
    return review(db.pool(), reviewId);
  }

  private Future<Optional<JsonObject>> review(SqlClient c, String reviewId) {
    return run(c, "SELECT " + REVIEW_COLUMNS + " FROM reviews WHERE review_id = ?", Tuple.of(reviewId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(review(rows.iterator().next())));
  }

  private static JsonObject checkOpen(Optional<JsonObject> found, String reviewId, String analyst, long now) {
    JsonObject r = found.orElseThrow(() -> ApiException.notFound("unknown_review", "no review '" + reviewId + "'"));
    if (!"pending".equals(r.getString("status"))) {
      throw new ApiException(409, "review_closed", "review " + reviewId + " is already " + r.getString("status"));
    }
    String holder = r.getString("assignee");
    Long until = r.getLong("claimExpiresAtMs");
    if (holder != null && !holder.equals(analyst) && until != null && until > now) {
      throw new ApiException(409, "claimed", "review " + reviewId + " is claimed by " + holder + " until "
          + java.time.Instant.ofEpochMilli(until));
    }
    return r;
  }

  @Override
  public Future<JsonObject> claim(String reviewId, String analyst, long now, long ttlMs) {
    return db.inTransaction(c -> review(c, reviewId).compose(found -> {
      checkOpen(found, reviewId, analyst, now);
      return run(c, "UPDATE reviews SET assignee = ?, claim_expires_at = ? WHERE review_id = ? AND status = 'pending'",
          Tuple.of(analyst, now + ttlMs, reviewId)).compose(x -> review(c, reviewId)).map(Optional::get);
    }));
  }

  @Override
  public Future<JsonObject> complete(String reviewId, String analyst, String action, String reason,
                                     JsonObject newDecision, JsonObject nextReview, long now) {
    return db.inTransaction(c -> review(c, reviewId).compose(found -> {
      checkOpen(found, reviewId, analyst, now);
      return run(c, "UPDATE reviews SET status = 'completed', completed_at = ?, action = ?, analyst = ?, reason = ?, "
              + "new_decision_id = ?, assignee = ? WHERE review_id = ? AND status = 'pending'",
          Tuple.of(now, action, analyst, reason, newDecision.getString("decisionId"), analyst, reviewId))
          .compose(rows -> {
            if (rows.rowCount() != 1) {
              return Future.failedFuture(new ApiException(409, "review_closed", "review " + reviewId
                  + " was completed concurrently"));
            }
            return run(c, INSERT_DECISION, decisionRow(newDecision));
          })
          .compose(x -> nextReview == null ? Future.succeededFuture() : run(c, INSERT_REVIEW, reviewRow(nextReview)).mapEmpty())
          .compose(x -> review(c, reviewId)).map(Optional::get);
    }));
  }

  @Override
  public Future<JsonObject> sla(long now) {
    return run(db.pool(), "SELECT profile, status, completed_at, due_at FROM reviews", Tuple.tuple()).map(rows -> {
      Map<String, long[]> by = new LinkedHashMap<>();
      for (Row r : rows) {
        long[] c = by.computeIfAbsent(r.getString("profile"), p -> new long[4]);
        boolean pending = "pending".equals(r.getString("status"));
        long due = r.getLong("due_at");
        if (pending) {
          c[0]++;
          if (now > due) {
            c[2]++;
            c[3]++;
          }
        } else {
          c[1]++;
          if (r.getLong("completed_at") > due) {
            c[2]++;
          }
        }
      }
      JsonObject out = new JsonObject();
      by.forEach((p, c) -> out.put(p, new JsonObject().put("pending", c[0]).put("completed", c[1])
          .put("breached", c[2]).put("breachedOpen", c[3])));
      return out;
    });
  }

  @Override
  public Future<Void> appendShadow(JsonObject s) {
    return run(db.pool(), "INSERT INTO shadow_decisions (shadow_id, version, profile, live_decision_id, subject_id, "
            + "live_outcome, outcome, live_risk_score, risk_score, created_at, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        Tuple.tuple().addString(s.getString("shadowId")).addString(s.getString("version"))
            .addString(s.getString("profile")).addString(s.getString("liveDecisionId"))
            .addString(s.getString("subjectId")).addString(s.getString("liveOutcome")).addString(s.getString("outcome"))
            .addDouble(s.getDouble("liveRiskScore")).addDouble(s.getDouble("riskScore"))
            .addLong(s.getLong("createdAtMs")).addString(s.encode())).mapEmpty();
  }

  @Override
  public Future<List<JsonObject>> shadow(String version, int limit) {
    return run(db.pool(), "SELECT body FROM shadow_decisions WHERE version = ? ORDER BY created_at DESC, shadow_id LIMIT ?",
        Tuple.of(version, limit)).map(rows -> {
          List<JsonObject> out = new ArrayList<>();
          rows.forEach(r -> out.add(new JsonObject(r.getString("body"))));
          return out;
        });
  }
}
