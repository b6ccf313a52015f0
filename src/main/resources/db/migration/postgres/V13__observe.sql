-- Observability: the trace of each run (OpenTelemetry spans as jsonb), and run retention.
CREATE TABLE run_traces (
  run_id     TEXT PRIMARY KEY,
  trace_id   TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  body       JSONB NOT NULL
);
CREATE INDEX run_traces_created_idx ON run_traces (created_at);
-- retention deletes ended runs by their last update
CREATE INDEX runs_updated_idx ON runs (updated_at);
