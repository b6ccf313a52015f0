-- Shadow mode (issue 12): what a candidate scoring/policy version decided on the same request as the live one.
-- Recorded, never returned to the caller; append-only like the decisions.
CREATE TABLE shadow_decisions (
  shadow_id        TEXT PRIMARY KEY,
  version          TEXT NOT NULL,
  profile          TEXT NOT NULL,
  live_decision_id TEXT NOT NULL,
  subject_id       TEXT NOT NULL,
  live_outcome     TEXT NOT NULL,
  outcome          TEXT NOT NULL,
  live_risk_score  DOUBLE PRECISION NOT NULL,
  risk_score       DOUBLE PRECISION NOT NULL,
  created_at       BIGINT NOT NULL,
  body             TEXT NOT NULL
);
CREATE INDEX shadow_version_idx ON shadow_decisions (version, created_at);
