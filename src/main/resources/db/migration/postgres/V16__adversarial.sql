-- Adversarial runs (owner: dev.argus.adversarial): one row per run, its request, status and, once completed, its
-- report (JSON text: detection rate per scenario type, vulnerabilities by severity, findings, regressions).
CREATE TABLE adversarial_runs (
  execution_id TEXT PRIMARY KEY,
  suite        TEXT NOT NULL,
  size         INTEGER NOT NULL,
  seed         BIGINT NOT NULL,
  status       TEXT NOT NULL,
  report       TEXT,
  error        TEXT,
  created_at   BIGINT NOT NULL,
  finished_at  BIGINT
);
CREATE INDEX adversarial_runs_suite_idx ON adversarial_runs (suite, size, status, created_at);
