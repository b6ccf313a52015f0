-- At most one decision per run (issue 15): a decision retried after a node died mid-run, or taken over by another
-- node, cannot be recorded twice. Corrections (reviews) carry the run id of the decision they correct and are
-- exempt. The table is append-only, so rows an older store may already hold twice stay; the unique index then
-- covers the decisions recorded from now on (seq above the current maximum).
DO $$
DECLARE
  dupes BIGINT;
  top   BIGINT;
BEGIN
  SELECT count(*) INTO dupes FROM (SELECT run_id FROM decisions WHERE run_id IS NOT NULL
    AND corrects_decision_id IS NULL GROUP BY run_id HAVING count(*) > 1) d;
  IF dupes = 0 THEN
    CREATE UNIQUE INDEX decisions_run_once ON decisions (run_id)
      WHERE run_id IS NOT NULL AND corrects_decision_id IS NULL;
  ELSE
    SELECT coalesce(max(seq), 0) INTO top FROM decisions;
    EXECUTE format('CREATE UNIQUE INDEX decisions_run_once ON decisions (run_id) '
      || 'WHERE run_id IS NOT NULL AND corrects_decision_id IS NULL AND seq > %s', top);
    RAISE NOTICE 'decisions: % run id(s) already had several decisions; one decision per run is enforced from seq %',
      dupes, top + 1;
  END IF;
END $$;
