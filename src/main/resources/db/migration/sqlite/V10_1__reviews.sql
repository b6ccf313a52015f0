-- Reviews of pending decisions (issue 12). A review's state changes (claimed, completed); the decisions it produces
-- are new rows of the append-only decisions table. due_at = created_at + the profile's SLA.
CREATE TABLE reviews (
  review_id        TEXT PRIMARY KEY,
  decision_id      TEXT NOT NULL REFERENCES decisions (decision_id),
  profile          TEXT NOT NULL,
  subject_id       TEXT NOT NULL,
  outcome          TEXT NOT NULL,
  risk_score       REAL NOT NULL,
  confidence       REAL NOT NULL,
  status           TEXT NOT NULL,
  assignee         TEXT,
  claim_expires_at INTEGER,
  created_at       INTEGER NOT NULL,
  due_at           INTEGER NOT NULL,
  completed_at     INTEGER,
  action           TEXT,
  analyst          TEXT,
  reason           TEXT,
  new_decision_id  TEXT
);
CREATE INDEX reviews_status_idx ON reviews (status, created_at);
CREATE INDEX reviews_decision_idx ON reviews (decision_id);
