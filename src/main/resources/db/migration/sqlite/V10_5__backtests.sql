-- Backtest jobs and their reports (dev.argus.backtest): one row per job, written when it starts and when it ends,
-- so GET /api/backtests/{id} answers after a restart. job: the job's JSON with its report; verdicts: the per-subject
-- verdicts (JSON array) of a finished job. A job found running at start-up was cut off by the restart.
CREATE TABLE backtests (
  backtest_id TEXT PRIMARY KEY,
  status      TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  updated_at  BIGINT NOT NULL,
  job         TEXT NOT NULL,
  verdicts    TEXT
);
CREATE INDEX backtests_created ON backtests (created_at);
