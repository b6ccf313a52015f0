-- The entity graph (issue 11). Nodes and edges exist only while at least one source backs them: every fact carries
-- its provenance in graph_sources (item_kind 'n' node / 'e' edge; origin = the record id or document id whose
-- replacement or deletion removes the fact; source = {source_kind: record|chunk, source_id}). An edge's weight is the
-- largest weight among its sources, first_seen/last_seen the smallest/largest source time (epoch ms); a node's risk is
-- the largest risk among its sources (risk events, fraud cases, watchlist entries).
CREATE TABLE graph_nodes (
  id         TEXT PRIMARY KEY,
  type       TEXT NOT NULL,
  label      TEXT NOT NULL,
  search     TEXT NOT NULL,
  attributes TEXT NOT NULL,
  risk       REAL NOT NULL DEFAULT 0,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL
);
CREATE INDEX graph_nodes_type_idx ON graph_nodes (type, id);

CREATE TABLE graph_edges (
  id         TEXT PRIMARY KEY,
  type       TEXT NOT NULL,
  src        TEXT NOT NULL,
  dst        TEXT NOT NULL,
  weight     REAL NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL
);
-- fan-out bounded expansion reads the heaviest edges of one node first, from either end
CREATE INDEX graph_edges_src_idx ON graph_edges (src, weight DESC, id);
CREATE INDEX graph_edges_dst_idx ON graph_edges (dst, weight DESC, id);

CREATE TABLE graph_sources (
  item_kind   TEXT NOT NULL,
  item_id     TEXT NOT NULL,
  source_id   TEXT NOT NULL,
  source_kind TEXT NOT NULL,
  origin      TEXT NOT NULL,
  at          INTEGER NOT NULL,
  weight      REAL NOT NULL,
  risk        REAL NOT NULL,
  PRIMARY KEY (item_kind, item_id, source_id)
);
CREATE INDEX graph_sources_origin_idx ON graph_sources (origin);

-- Rings and communities with ids that stay stable across recomputations (matched by membership overlap).
CREATE TABLE graph_groups (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL,
  members    TEXT NOT NULL,
  size       INTEGER NOT NULL,
  risk       REAL NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen  INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE graph_group_members (
  group_id  TEXT NOT NULL,
  member_id TEXT NOT NULL,
  PRIMARY KEY (group_id, member_id)
);
CREATE INDEX graph_group_members_member_idx ON graph_group_members (member_id);
