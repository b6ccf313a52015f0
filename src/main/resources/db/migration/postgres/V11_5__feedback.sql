-- Feedback and calibration (owner: dev.argus.feedback).
-- feedback_decisions: the decisions feedback knows of (from argus.decisions.created or argus.decisions.get), with
-- their latest label; the queue is the unlabelled ones. feedback: every analyst verdict on a decision or a chat run
-- (history, never rewritten). calibrators: the fitted isotonic calibrators per profile and version.
CREATE TABLE feedback_decisions (
  decision_id           TEXT PRIMARY KEY,
  profile               TEXT NOT NULL,
  subject_id            TEXT,
  outcome               TEXT,
  confidence            DOUBLE PRECISION NOT NULL,
  calibrated_confidence DOUBLE PRECISION,
  calibrator_version    INTEGER,
  created_at            BIGINT NOT NULL,
  label                 TEXT,
  true_outcome          TEXT,
  label_source          TEXT,
  labelled_at           BIGINT
);
CREATE INDEX feedback_decisions_queue_idx ON feedback_decisions (profile, label, calibrated_confidence);
CREATE INDEX feedback_decisions_subject_idx ON feedback_decisions (subject_id);

CREATE TABLE feedback (
  id           TEXT PRIMARY KEY,
  target_kind  TEXT NOT NULL,
  target_id    TEXT NOT NULL,
  profile      TEXT NOT NULL,
  label        TEXT,
  reason       TEXT,
  true_outcome TEXT,
  rating       INTEGER,
  comment      TEXT,
  analyst      TEXT NOT NULL,
  source       TEXT NOT NULL,
  confidence   DOUBLE PRECISION,
  created_at   BIGINT NOT NULL
);
CREATE INDEX feedback_target_idx ON feedback (target_id, created_at);
CREATE INDEX feedback_created_idx ON feedback (created_at);

CREATE TABLE calibrators (
  profile    TEXT NOT NULL,
  version    INTEGER NOT NULL,
  fitted_at  BIGINT NOT NULL,
  labels     INTEGER NOT NULL,
  model      TEXT NOT NULL,
  ece_before DOUBLE PRECISION,
  ece_after  DOUBLE PRECISION,
  PRIMARY KEY (profile, version)
);
