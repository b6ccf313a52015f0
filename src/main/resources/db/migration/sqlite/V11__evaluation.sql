-- Evaluation of every run and decision (issue 13): one row per evaluated run with its whole evaluation as JSON,
-- its scores one per row (for history and hourly aggregation), the hourly aggregates per profile and metric
-- (recomputed idempotently), the regressions found (one per profile, metric and hour), the golden sets and the
-- results of running them.
CREATE TABLE eval_runs (
  run_id     TEXT NOT NULL PRIMARY KEY,
  kind       TEXT NOT NULL,
  profile    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  aggregate  DOUBLE,
  body       TEXT NOT NULL
);
CREATE INDEX eval_runs_created_idx ON eval_runs (created_at);

CREATE TABLE eval_scores (
  run_id     TEXT NOT NULL,
  metric     TEXT NOT NULL,
  profile    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  value      DOUBLE NOT NULL,
  PRIMARY KEY (run_id, metric)
);
CREATE INDEX eval_scores_history_idx ON eval_scores (profile, metric, created_at);
CREATE INDEX eval_scores_created_idx ON eval_scores (created_at);

CREATE TABLE eval_hourly (
  profile    TEXT NOT NULL,
  metric     TEXT NOT NULL,
  hour_start INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  mean       DOUBLE NOT NULL,
  min_value  DOUBLE NOT NULL,
  max_value  DOUBLE NOT NULL,
  PRIMARY KEY (profile, metric, hour_start)
);
CREATE INDEX eval_hourly_hour_idx ON eval_hourly (hour_start);

CREATE TABLE eval_regressions (
  regression_id TEXT NOT NULL PRIMARY KEY,
  profile       TEXT NOT NULL,
  metric        TEXT NOT NULL,
  hour_start    INTEGER NOT NULL,
  last_value    DOUBLE NOT NULL,
  baseline      DOUBLE NOT NULL,
  drop_ratio    DOUBLE NOT NULL,
  threshold     DOUBLE NOT NULL,
  created_at    INTEGER NOT NULL,
  UNIQUE (profile, metric, hour_start)
);
CREATE INDEX eval_regressions_created_idx ON eval_regressions (created_at);

CREATE TABLE eval_sets (
  name       TEXT NOT NULL PRIMARY KEY,
  body       TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE eval_set_results (
  result_id  TEXT NOT NULL PRIMARY KEY,
  set_name   TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  body       TEXT NOT NULL
);
CREATE INDEX eval_set_results_set_idx ON eval_set_results (set_name, created_at);
