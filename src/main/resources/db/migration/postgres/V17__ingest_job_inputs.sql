-- What an unfinished ingestion job still has to do, so that a restart resumes it (owner: dev.argus.ingest): the
-- job's request (its documents as submitted, the inputs rejected while reading it, its replace mode) as JSON text,
-- written in the same transaction as the job's first record and deleted in the one that records its end. A job
-- found queued or running at start with a row here is resumed after the documents it had recorded; `attempts`
-- counts the resumes since the job last made progress, `progress` its processed count at the last resume (a job
-- whose input keeps killing the process makes none, and is marked interrupted after a few).
CREATE TABLE ingest_job_inputs (
  job_id   TEXT    PRIMARY KEY,
  request  TEXT    NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  progress INTEGER NOT NULL DEFAULT 0
);
