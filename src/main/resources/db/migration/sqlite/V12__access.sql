-- Access control: API keys (only a SHA-256 hash of each key's secret is kept) and the append-only audit log of
-- administrative and review actions. The triggers refuse every UPDATE and DELETE of the audit log.
CREATE TABLE api_keys (
  id          TEXT    PRIMARY KEY,          -- public part of the key: argus_<id>_<secret>
  secret_hash TEXT    NOT NULL,             -- hex SHA-256 of the secret
  role        TEXT    NOT NULL CHECK (role IN ('admin', 'analyst', 'upstream', 'reader')),
  namespaces  TEXT    CHECK (namespaces IS NULL OR json_valid(namespaces)),  -- JSON array; NULL: every namespace
  rate_limit  INTEGER,                      -- requests per minute; NULL: the role's default
  label       TEXT    NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,             -- epoch milliseconds
  created_by  TEXT    NOT NULL,
  revoked_at  INTEGER                       -- epoch milliseconds; NULL while the key is valid
);

CREATE TABLE audit_log (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  at         INTEGER NOT NULL,               -- epoch milliseconds
  actor      TEXT    NOT NULL,               -- key id, jwt:<subject>, local or cli
  role       TEXT    NOT NULL,
  action     TEXT    NOT NULL,               -- e.g. keys.create, http POST /api/reviews/:id
  target     TEXT    NOT NULL DEFAULT '',
  outcome    INTEGER NOT NULL,               -- HTTP status (or 0 for actions outside HTTP)
  detail     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(detail))
);
CREATE INDEX audit_log_at ON audit_log (at);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
