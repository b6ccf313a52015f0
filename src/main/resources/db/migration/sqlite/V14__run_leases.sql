-- Cluster mode (issue 15): which node drives each running run. A node holds a lease on every run it drives and
-- renews it; when it dies, its leases expire and another node takes the run over (resume from the last
-- checkpoint). takeovers counts the hand-overs (a run taken over too often is failed). Unused by a single process.
CREATE TABLE run_leases (
  run_id     TEXT PRIMARY KEY,
  node_id    TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  takeovers  INTEGER NOT NULL DEFAULT 0,
  updated_at BIGINT NOT NULL
);
CREATE INDEX run_leases_node_idx ON run_leases (node_id);
CREATE INDEX run_leases_expires_idx ON run_leases (expires_at);
