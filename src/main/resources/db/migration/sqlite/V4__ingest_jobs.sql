-- Ingestion jobs survive restarts: one row per job (indexed columns + the job's JSON as text), written when the job
-- is created, as it progresses (at most about once a second) and when it ends. Jobs found queued or running at start
-- were cut short by the previous process and are marked interrupted.
CREATE TABLE ingest_jobs (
  job_id     TEXT    PRIMARY KEY,
  status     TEXT    NOT NULL,
  created_at INTEGER NOT NULL,  -- epoch milliseconds
  updated_at INTEGER NOT NULL,  -- epoch milliseconds
  body       TEXT    NOT NULL CHECK (json_valid(body))
);
CREATE INDEX ingest_jobs_status ON ingest_jobs (status);
CREATE INDEX ingest_jobs_updated ON ingest_jobs (updated_at);
