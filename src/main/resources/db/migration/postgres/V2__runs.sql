-- Agent runs: one row per run (indexed columns + the whole checkpointed record as jsonb)
-- and the ordered event log of each run (for SSE replay with Last-Event-ID).
CREATE TABLE runs (
  run_id     TEXT PRIMARY KEY,
  profile    TEXT NOT NULL,
  status     TEXT NOT NULL,
  next_phase TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  body       JSONB NOT NULL
);
CREATE INDEX runs_status_idx ON runs (status, created_at);

CREATE TABLE run_events (
  run_id     TEXT NOT NULL,
  event_id   BIGINT NOT NULL,
  type       TEXT NOT NULL,
  data       JSONB NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (run_id, event_id)
);
