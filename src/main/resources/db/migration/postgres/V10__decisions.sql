-- Decisions (issue 12): append-only. A decision is never updated or deleted; a correction (a review's outcome) is a
-- new row whose corrects_decision_id points to the row it corrects. Enforced below the API by triggers.
CREATE TABLE decisions (
  seq                  BIGSERIAL PRIMARY KEY,
  decision_id          TEXT NOT NULL UNIQUE,
  profile              TEXT NOT NULL,
  subject_id           TEXT NOT NULL,
  outcome              TEXT NOT NULL,
  status               TEXT NOT NULL,
  risk_score           DOUBLE PRECISION NOT NULL,
  confidence           DOUBLE PRECISION NOT NULL,
  created_at           BIGINT NOT NULL,
  corrects_decision_id TEXT REFERENCES decisions (decision_id),
  run_id               TEXT,
  body                 TEXT NOT NULL
);
CREATE INDEX decisions_subject_idx ON decisions (subject_id, created_at);
CREATE INDEX decisions_created_idx ON decisions (created_at);
CREATE INDEX decisions_corrects_idx ON decisions (corrects_decision_id) WHERE corrects_decision_id IS NOT NULL;

CREATE FUNCTION decisions_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'decisions are append-only: a correction is a new decision' USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER decisions_no_update_delete BEFORE UPDATE OR DELETE ON decisions
  FOR EACH ROW EXECUTE FUNCTION decisions_append_only();
CREATE TRIGGER decisions_no_truncate BEFORE TRUNCATE ON decisions
  FOR EACH STATEMENT EXECUTE FUNCTION decisions_append_only();
