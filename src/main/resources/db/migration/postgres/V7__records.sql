-- Fraud-domain records (issue 11): one row per record, the stored form as jsonb plus the columns the queries
-- filter on. at = event time in epoch ms (at / createdAt / openedAt; 0 for watchlist entries, visible at any time).
-- Raw tax ids, bank accounts and card numbers are never stored (keyed fingerprints only, see README).
CREATE TABLE records (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  at         BIGINT NOT NULL,
  seller_id  TEXT,
  buyer_id   TEXT,
  ref_id     TEXT,
  subject_id TEXT,
  match_key  TEXT,
  hash       TEXT NOT NULL,
  body       JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX records_kind_idx ON records (kind, at, id);
CREATE INDEX records_seller_idx ON records (seller_id, kind, at) WHERE seller_id IS NOT NULL;
CREATE INDEX records_buyer_idx ON records (buyer_id, at) WHERE buyer_id IS NOT NULL;
CREATE INDEX records_ref_idx ON records (ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX records_subject_idx ON records (subject_id, at) WHERE subject_id IS NOT NULL;
CREATE INDEX records_match_idx ON records (match_key) WHERE match_key IS NOT NULL;

-- The subjects of each case (a case names several).
CREATE TABLE record_subjects (
  subject_id TEXT NOT NULL,
  record_id  TEXT NOT NULL,
  PRIMARY KEY (subject_id, record_id)
);
CREATE INDEX record_subjects_record_idx ON record_subjects (record_id);

-- Normalized names of watchlist entries of type name, for fuzzy (pg_trgm) matching.
CREATE TABLE watchlist_names (
  record_id TEXT PRIMARY KEY,
  name      TEXT NOT NULL
);
CREATE INDEX watchlist_names_trgm_idx ON watchlist_names USING gin (name gin_trgm_ops);

-- Ground-truth labels of synthetic worlds: measurement only. No deciding or scoring code reads this table.
CREATE TABLE record_labels (
  record_id  TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  label      JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
