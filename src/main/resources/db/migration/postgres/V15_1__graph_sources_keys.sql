-- Graph build speed (issue 11): a load writes several provenance rows per record. Their unique key led with the item
-- (an edge id is a hash), so every row went to a random page of the largest index, which outgrew shared_buffers at
-- 1 M transactions. The key now leads with the origin (a load writes a record's rows together and records in id
-- order: inserts land on a few hot pages), which also serves the removal by origin, so the separate origin index goes;
-- look-ups by item (provenance, recomputation) use a non-unique index that deduplicates an item's many sources into
-- one entry. An origin is a function of the source (a record is its own origin, a chunk belongs to one document), so
-- the new key admits exactly the rows the old one did.
ALTER TABLE graph_sources DROP CONSTRAINT graph_sources_pkey;
ALTER TABLE graph_sources ADD PRIMARY KEY (origin, item_kind, item_id, source_id);
DROP INDEX graph_sources_origin_idx;
CREATE INDEX graph_sources_item_idx ON graph_sources (item_kind, item_id);
