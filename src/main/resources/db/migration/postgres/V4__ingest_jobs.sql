-- Ingestion jobs survive restarts: one row per job (indexed columns + the job's JSON as jsonb), written when the job
-- is created, as it progresses (at most about once a second) and when it ends. Jobs found queued or running at start
-- were cut short by the previous process and are marked interrupted.
CREATE TABLE ingest_jobs (
  job_id     TEXT   PRIMARY KEY,
  status     TEXT   NOT NULL,
  created_at BIGINT NOT NULL,  -- epoch milliseconds
  updated_at BIGINT NOT NULL,  -- epoch milliseconds
  body       JSONB  NOT NULL
);
CREATE INDEX ingest_jobs_status ON ingest_jobs (status);
CREATE INDEX ingest_jobs_updated ON ingest_jobs (updated_at);
