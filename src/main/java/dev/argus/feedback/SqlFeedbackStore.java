package dev.argus.feedback;

import dev.argus.feedback.calibration.Calibrator;
import dev.argus.feedback.calibration.Outcome;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The SQL both feedback stores share, written with {@code ?} placeholders; {@link #sql} gives the dialect's form
 * (PostgreSQL numbers them). All statements are parameterized; the only text spliced in is a column name chosen from
 * {@link FeedbackStore.By}.
 */
abstract class SqlFeedbackStore implements FeedbackStore {

  private static final String DECISION_COLUMNS = "decision_id, profile, subject_id, outcome, confidence, "
      + "calibrated_confidence, calibrator_version, created_at, label, true_outcome";
  private static final String FEEDBACK_COLUMNS = "id, target_kind, target_id, profile, label, reason, true_outcome, "
      + "rating, comment, analyst, source, confidence, created_at";

  final Database db;

  SqlFeedbackStore(Database db) {
    this.db = db;
  }

  /** The statement in the dialect's placeholder form. */
  abstract String sql(String withQuestionMarks);

  @Override
  public Future<Void> indexDecision(DecisionRef d) {
    return db.pool().preparedQuery(sql("INSERT INTO feedback_decisions (decision_id, profile, subject_id, outcome, "
            + "confidence, calibrated_confidence, calibrator_version, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            + "ON CONFLICT (decision_id) DO UPDATE SET profile = excluded.profile, subject_id = excluded.subject_id, "
            + "outcome = excluded.outcome, confidence = excluded.confidence, "
            + "calibrated_confidence = excluded.calibrated_confidence, calibrator_version = excluded.calibrator_version, "
            + "created_at = excluded.created_at"))
        .execute(Tuple.from(new Object[] {d.decisionId(), d.profile(), d.subjectId(), d.outcome(), d.confidence(),
            d.calibratedConfidence(), d.calibratorVersion(), d.createdAtMs()}))
        .mapEmpty();
  }

  @Override
  public Future<Optional<DecisionRef>> decision(String decisionId) {
    return db.pool().preparedQuery(sql("SELECT " + DECISION_COLUMNS + " FROM feedback_decisions WHERE decision_id = ?"))
        .execute(Tuple.of(decisionId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(decision(rows.iterator().next())));
  }

  @Override
  public Future<Void> record(Feedback f, boolean labels) {
    return db.inTransaction(conn -> conn.preparedQuery(sql("INSERT INTO feedback (" + FEEDBACK_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"))
        .execute(Tuple.from(new Object[] {f.id(), f.target().wire(), f.targetId(), f.profile(),
            f.label() == null ? null : f.label().wire(), f.reason() == null ? null : f.reason().wire(), f.trueOutcome(),
            f.rating(), f.comment(), f.analyst(), f.source(), f.confidence(), f.createdAtMs()}))
        .compose(v -> !labels || f.target() != FeedbackRequest.Target.DECISION || f.label() == null
            ? Future.succeededFuture()
            : conn.preparedQuery(sql("UPDATE feedback_decisions SET label = ?, true_outcome = ?, label_source = ?, "
                + "labelled_at = ? WHERE decision_id = ?"))
            .execute(Tuple.of(f.label().wire(), f.trueOutcome(), f.source(), f.createdAtMs(), f.targetId()))
            .map(rows -> {
              if (rows.rowCount() != 1) {
                throw new IllegalStateException("decision " + f.targetId() + " is not indexed");
              }
              return null;
            }))
        .mapEmpty());
  }

  @Override
  public Future<List<Feedback>> forTarget(String targetId, int limit) {
    return db.pool().preparedQuery(sql("SELECT " + FEEDBACK_COLUMNS + " FROM feedback WHERE target_id = ? "
            + "ORDER BY created_at DESC, id LIMIT ?"))
        .execute(Tuple.of(targetId, limit))
        .map(rows -> {
          List<Feedback> out = new ArrayList<>();
          for (Row r : rows) {
            out.add(feedback(r));
          }
          return out;
        });
  }

  @Override
  public Future<List<DecisionRef>> queue(String profile, int limit) {
    Tuple args = Tuple.tuple();
    String where = "label IS NULL";
    if (profile != null) {
      where += " AND profile = ?";
      args.addValue(profile);
    }
    args.addValue(limit);
    return db.pool().preparedQuery(sql("SELECT " + DECISION_COLUMNS + " FROM feedback_decisions WHERE " + where
            + " ORDER BY COALESCE(calibrated_confidence, confidence), created_at, decision_id LIMIT ?"))
        .execute(args)
        .map(rows -> {
          List<DecisionRef> out = new ArrayList<>();
          for (Row r : rows) {
            out.add(decision(r));
          }
          return out;
        });
  }

  @Override
  public Future<List<DecisionRef>> unlabelledAbout(String subjectId, int limit) {
    return db.pool().preparedQuery(sql("SELECT " + DECISION_COLUMNS + " FROM feedback_decisions WHERE subject_id = ? "
            + "AND label IS NULL ORDER BY created_at, decision_id LIMIT ?"))
        .execute(Tuple.of(subjectId, limit))
        .map(rows -> {
          List<DecisionRef> out = new ArrayList<>();
          for (Row r : rows) {
            out.add(decision(r));
          }
          return out;
        });
  }

  @Override
  public Future<List<Outcome>> outcomes(String profile) {
    return pairs("confidence", profile);
  }

  @Override
  public Future<List<Outcome>> calibratedOutcomes(String profile) {
    return pairs("calibrated_confidence", profile);
  }

  private Future<List<Outcome>> pairs(String column, String profile) {
    Tuple args = Tuple.tuple();
    String where = "label IS NOT NULL AND " + column + " IS NOT NULL";
    if (profile != null) {
      where += " AND profile = ?";
      args.addValue(profile);
    }
    return db.pool().preparedQuery(sql("SELECT " + column + " AS c, label FROM feedback_decisions WHERE " + where
            + " ORDER BY labelled_at, decision_id"))
        .execute(args)
        .map(rows -> {
          List<Outcome> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            out.add(new Outcome(r.getDouble("c"), Label.CORRECT.wire().equals(r.getString("label"))));
          }
          return out;
        });
  }

  @Override
  public Future<Map<String, Long>> labelCounts() {
    return db.pool().query("SELECT profile, COUNT(*) AS n FROM feedback_decisions WHERE label IS NOT NULL "
            + "GROUP BY profile ORDER BY profile").execute()
        .map(rows -> {
          Map<String, Long> out = new LinkedHashMap<>();
          for (Row r : rows) {
            out.put(r.getString("profile"), r.getLong("n"));
          }
          return out;
        });
  }

  private static final String TALLY = "COUNT(*) AS n, "
      + "SUM(CASE WHEN label = 'correct' THEN 1 ELSE 0 END) AS correct, "
      + "SUM(CASE WHEN label = 'incorrect' THEN 1 ELSE 0 END) AS incorrect, "
      + "AVG(rating) AS rating";

  @Override
  public Future<List<Tally>> tallies(By by, Long sinceMs) {
    String column = switch (by) {
      case ANALYST -> "analyst";
      case PROFILE -> "profile";
      case REASON -> "COALESCE(reason, 'none')";
    };
    Tuple args = Tuple.tuple();
    String where = "";
    if (sinceMs != null) {
      where = " WHERE created_at >= ?";
      args.addValue(sinceMs);
    }
    return db.pool().preparedQuery(sql("SELECT " + column + " AS k, " + TALLY + " FROM feedback" + where
            + " GROUP BY " + column + " ORDER BY n DESC, k LIMIT 200"))
        .execute(args)
        .map(rows -> {
          List<Tally> out = new ArrayList<>();
          for (Row r : rows) {
            out.add(tally(r.getString("k"), r));
          }
          return out;
        });
  }

  @Override
  public Future<Tally> total(Long sinceMs) {
    Tuple args = Tuple.tuple();
    String where = "";
    if (sinceMs != null) {
      where = " WHERE created_at >= ?";
      args.addValue(sinceMs);
    }
    return db.pool().preparedQuery(sql("SELECT " + TALLY + " FROM feedback" + where)).execute(args)
        .map(rows -> tally("all", rows.iterator().next()));
  }

  @Override
  public Future<Void> saveCalibrator(Calibrator c) {
    return db.pool().preparedQuery(sql("INSERT INTO calibrators (profile, version, fitted_at, labels, model, "
            + "ece_before, ece_after) VALUES (?, ?, ?, ?, ?, ?, ?)"))
        .execute(Tuple.from(new Object[] {c.profile(), c.version(), c.fittedAtMs(), c.labels(), c.modelJson(),
            nullIfNaN(c.eceBefore()), nullIfNaN(c.eceAfter())}))
        .mapEmpty();
  }

  @Override
  public Future<List<Calibrator>> latestCalibrators() {
    return db.pool().query("SELECT c.profile, c.version, c.fitted_at, c.labels, c.model, c.ece_before, c.ece_after "
            + "FROM calibrators c JOIN (SELECT profile, MAX(version) AS v FROM calibrators GROUP BY profile) m "
            + "ON c.profile = m.profile AND c.version = m.v ORDER BY c.profile").execute()
        .map(rows -> calibrators(rows, true));
  }

  @Override
  public Future<List<Calibrator>> calibratorHistory(String profile, int limit) {
    return db.pool().preparedQuery(sql("SELECT profile, version, fitted_at, labels, model, ece_before, ece_after "
            + "FROM calibrators WHERE profile = ? ORDER BY version DESC LIMIT ?"))
        .execute(Tuple.of(profile, limit))
        .map(rows -> calibrators(rows, false));
  }

  // ---- rows ------------------------------------------------------------------------------------------------------

  private static List<Calibrator> calibrators(RowSet<Row> rows, boolean withBlocks) {
    List<Calibrator> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(new Calibrator(r.getString("profile"), r.getInteger("version"), r.getLong("fitted_at"),
          r.getInteger("labels"), withBlocks ? Calibrator.blocksFromJson(r.getString("model")) : List.of(),
          nanIfNull(r.getDouble("ece_before")), nanIfNull(r.getDouble("ece_after"))));
    }
    return out;
  }

  private static DecisionRef decision(Row r) {
    String label = r.getString("label");
    return new DecisionRef(r.getString("decision_id"), r.getString("profile"), r.getString("subject_id"),
        r.getString("outcome"), r.getDouble("confidence"), r.getDouble("calibrated_confidence"),
        r.getInteger("calibrator_version"), r.getLong("created_at"), label == null ? null : Label.parse(label),
        r.getString("true_outcome"));
  }

  private static Feedback feedback(Row r) {
    String label = r.getString("label");
    String reason = r.getString("reason");
    return new Feedback(r.getString("id"), "run".equals(r.getString("target_kind")) ? FeedbackRequest.Target.RUN
        : FeedbackRequest.Target.DECISION, r.getString("target_id"), r.getString("profile"),
        label == null ? null : Label.parse(label), reason == null ? null : Reason.parse(reason),
        r.getString("true_outcome"), r.getInteger("rating"), r.getString("comment"), r.getString("analyst"),
        r.getString("source"), r.getDouble("confidence"), r.getLong("created_at"));
  }

  private static Tally tally(String key, Row r) {
    Object rating = r.getValue("rating");
    return new Tally(key, number(r.getValue("n")), number(r.getValue("correct")), number(r.getValue("incorrect")),
        rating instanceof Number n ? n.doubleValue() : null);
  }

  private static long number(Object v) {
    return v instanceof Number n ? n.longValue() : 0;
  }

  private static Double nullIfNaN(double v) {
    return Double.isNaN(v) ? null : v;
  }

  private static double nanIfNull(Double v) {
    return v == null ? Double.NaN : v;
  }
}
