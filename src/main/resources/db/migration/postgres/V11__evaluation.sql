-- Evaluation of every run and decision (issue 13): one row per evaluated run with its whole evaluation as JSON,
-- its scores one per row (for history and hourly aggregation), the hourly aggregates per profile and metric
-- (recomputed idempotently), the regressions found (one per profile, metric and hour), the golden sets and the
-- results of running them.
CREATE TABLE eval_runs (
  run_id     TEXT NOT NULL PRIMARY KEY,
  kind       TEXT NOT NULL,
  profile    TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  aggregate  DOUBLE PRECISION,
  body       TEXT NOT NULL
);
CREATE INDEX eval_runs_created_idx ON eval_runs (created_at);

CREATE TABLE eval_scores (
  run_id     TEXT NOT NULL,
  metric     TEXT NOT NULL,
  profile    TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  value      DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (run_id, metric)
);
CREATE INDEX eval_scores_history_idx ON eval_scores (profile, metric, created_at);
CREATE INDEX eval_scores_created_idx ON eval_scores (created_at);

CREATE TABLE eval_hourly (
  profile    TEXT NOT NULL,
  metric     TEXT NOT NULL,
  hour_start BIGINT NOT NULL,
  n          INTEGER NOT NULL,
  mean       DOUBLE PRECISION NOT NULL,
  min_value  DOUBLE PRECISION NOT NULL,
  max_value  DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (profile, metric, hour_start)
);
CREATE INDEX eval_hourly_hour_idx ON eval_hourly (hour_start);

CREATE TABLE eval_regressions (
  regression_id TEXT NOT NULL PRIMARY KEY,
  profile       TEXT NOT NULL,
  metric        TEXT NOT NULL,
  hour_start    BIGINT NOT NULL,
  last_value    DOUBLE PRECISION NOT NULL,
  baseline      DOUBLE PRECISION NOT NULL,
  drop_ratio    DOUBLE PRECISION NOT NULL,
  threshold     DOUBLE PRECISION NOT NULL,
  created_at    BIGINT NOT NULL,
  UNIQUE (profile, metric, hour_start)
);
CREATE INDEX eval_regressions_created_idx ON eval_regressions (created_at);

CREATE TABLE eval_sets (
  name       TEXT NOT NULL PRIMARY KEY,
  body       TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE eval_set_results (
  result_id  TEXT NOT NULL PRIMARY KEY,
  set_name   TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  body       TEXT NOT NULL
);
CREATE INDEX eval_set_results_set_idx ON eval_set_results (set_name, created_at);
