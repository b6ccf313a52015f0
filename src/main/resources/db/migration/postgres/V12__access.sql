-- Access control: API keys (only a SHA-256 hash of each key's secret is kept) and the append-only audit log of
-- administrative and review actions. The trigger refuses every UPDATE, DELETE and TRUNCATE of the audit log.
CREATE TABLE api_keys (
  id          TEXT    PRIMARY KEY,          -- public part of the key: argus_<id>_<secret>
  secret_hash TEXT    NOT NULL,             -- hex SHA-256 of the secret
  role        TEXT    NOT NULL CHECK (role IN ('admin', 'analyst', 'upstream', 'reader')),
  namespaces  JSONB,                        -- JSON array; NULL: every namespace
  rate_limit  INTEGER,                      -- requests per minute; NULL: the role's default
  label       TEXT    NOT NULL DEFAULT '',
  created_at  BIGINT  NOT NULL,             -- epoch milliseconds
  created_by  TEXT    NOT NULL,
  revoked_at  BIGINT                        -- epoch milliseconds; NULL while the key is valid
);

CREATE TABLE audit_log (
  seq        BIGSERIAL PRIMARY KEY,
  at         BIGINT  NOT NULL,               -- epoch milliseconds
  actor      TEXT    NOT NULL,               -- key id, jwt:<subject>, local or cli
  role       TEXT    NOT NULL,
  action     TEXT    NOT NULL,               -- e.g. keys.create, http POST /api/reviews/:id
  target     TEXT    NOT NULL DEFAULT '',
  outcome    INTEGER NOT NULL,               -- HTTP status (or 0 for actions outside HTTP)
  detail     JSONB   NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_at ON audit_log (at);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;

CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
