-- Graph build speed (issue 11): the unique key of graph_sources leads with the origin (a load writes a record's rows
-- together and records in id order, so inserts land on a few pages instead of random ones of the largest index) and
-- serves the removal by origin, so the separate origin index goes; look-ups by item use their own index. An origin is
-- a function of the source (a record is its own origin, a chunk belongs to one document), so the new key admits
-- exactly the rows the old one did.
CREATE TABLE graph_sources_new (
  item_kind   TEXT NOT NULL,
  item_id     TEXT NOT NULL,
  source_id   TEXT NOT NULL,
  source_kind TEXT NOT NULL,
  origin      TEXT NOT NULL,
  at          INTEGER NOT NULL,
  weight      DOUBLE NOT NULL,
  risk        DOUBLE NOT NULL,
  PRIMARY KEY (origin, item_kind, item_id, source_id)
);
INSERT INTO graph_sources_new SELECT item_kind, item_id, source_id, source_kind, origin, at, weight, risk
  FROM graph_sources;
DROP TABLE graph_sources;
ALTER TABLE graph_sources_new RENAME TO graph_sources;
CREATE INDEX graph_sources_item_idx ON graph_sources (item_kind, item_id);
