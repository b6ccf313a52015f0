-- At most one decision per run (issue 15; see the PostgreSQL migration). SQLite has one writer at a time, so a
-- trigger is race-free here; it also leaves alone rows an older store may already hold twice.
CREATE INDEX IF NOT EXISTS decisions_run_idx ON decisions (run_id);
CREATE TRIGGER decisions_run_once BEFORE INSERT ON decisions
  WHEN NEW.run_id IS NOT NULL AND NEW.corrects_decision_id IS NULL
BEGIN
  SELECT RAISE(ABORT, 'UNIQUE constraint failed: decisions.run_id')
    WHERE EXISTS (SELECT 1 FROM decisions WHERE run_id = NEW.run_id AND corrects_decision_id IS NULL);
END;
