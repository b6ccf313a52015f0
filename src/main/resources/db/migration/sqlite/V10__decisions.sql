-- Decisions (issue 12): append-only. A decision is never updated or deleted; a correction (a review's outcome) is a
-- new row whose corrects_decision_id points to the row it corrects. Enforced below the API by triggers.
CREATE TABLE decisions (
  seq                  INTEGER PRIMARY KEY AUTOINCREMENT,
  decision_id          TEXT NOT NULL UNIQUE,
  profile              TEXT NOT NULL,
  subject_id           TEXT NOT NULL,
  outcome              TEXT NOT NULL,
  status               TEXT NOT NULL,
  risk_score           REAL NOT NULL,
  confidence           REAL NOT NULL,
  created_at           INTEGER NOT NULL,
  corrects_decision_id TEXT REFERENCES decisions (decision_id),
  run_id               TEXT,
  body                 TEXT NOT NULL
);
CREATE INDEX decisions_subject_idx ON decisions (subject_id, created_at);
CREATE INDEX decisions_created_idx ON decisions (created_at);
CREATE INDEX decisions_corrects_idx ON decisions (corrects_decision_id) WHERE corrects_decision_id IS NOT NULL;

CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
BEGIN
  SELECT RAISE(ABORT, 'decisions are append-only: a correction is a new decision');
END;
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
BEGIN
  SELECT RAISE(ABORT, 'decisions are append-only: a correction is a new decision');
END;
