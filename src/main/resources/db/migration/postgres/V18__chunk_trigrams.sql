-- The trigram leg's term vectors move from chunks into a narrow table of their own (issue 16).
--
-- The leg sums, per chunk, the postings of the query's kept trigrams (PgSql.trigramScoredSql), and reads each
-- posting's chunk length in the same visit of the row. In chunks that visit lands on a wide row (the embedding,
-- the text, the lexemes): at 100,000 chunks a short query's 1,915 postings touched 1,872 heap pages of 186 MB, most
-- of them outside shared buffers, and the tail of the default search was the trigram leg (24 ms mean over the
-- slowest 5 % of SciFact's queries, up to 47 ms). Here the same rows take 8 MB, which stay cached: the leg's mean
-- went from 6.4 to 3.5 ms at 100,000 chunks (README, "Search quality and speed, fourth session").
--
-- A row per chunk, written by triggers on chunks (so every path that writes chunks, ingestion, replacement and
-- migrate-store alike, keeps it in step) and deleted with its chunk by the foreign key.
CREATE TABLE chunk_trigrams (
  document_id TEXT NOT NULL,
  idx         INTEGER NOT NULL,
  tgv         tsvector NOT NULL,
  tgv_len     INTEGER NOT NULL,
  PRIMARY KEY (document_id, idx),
  FOREIGN KEY (document_id, idx) REFERENCES chunks (document_id, idx) ON DELETE CASCADE ON UPDATE CASCADE
);
-- BM25 reads the trigrams' document frequencies and the mean length from the planner's statistics: keep many.
ALTER TABLE chunk_trigrams ALTER COLUMN tgv SET STATISTICS 1000;
ALTER TABLE chunk_trigrams ALTER COLUMN tgv_len SET STATISTICS 1000;

INSERT INTO chunk_trigrams (document_id, idx, tgv, tgv_len) SELECT document_id, idx, tgv, tgv_len FROM chunks;
CREATE INDEX chunk_trigrams_tgv ON chunk_trigrams USING gin (tgv);
DROP INDEX IF EXISTS chunks_tgv;
ALTER TABLE chunks DROP COLUMN tgv, DROP COLUMN tgv_len;

-- New chunks: one statement for all the rows a statement inserted (ingestion inserts a document's chunks at once).
-- pg_trgm's trigrams of title and text, as V3's generated columns computed them, once per chunk.
CREATE FUNCTION chunk_trigrams_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chunk_trigrams (document_id, idx, tgv, tgv_len)
  SELECT n.document_id, n.idx, array_to_tsvector(g.trigrams), cardinality(g.trigrams)
  FROM inserted_chunks n CROSS JOIN LATERAL (SELECT show_trgm(n.title || ' ' || n.text)) AS g(trigrams);
  RETURN NULL;
END
$$;
CREATE TRIGGER chunks_trigrams_insert AFTER INSERT ON chunks REFERENCING NEW TABLE AS inserted_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION chunk_trigrams_insert();

-- A chunk whose title or text changes in place (nothing does today; a replaced document's chunks are deleted and
-- inserted again) gets its trigrams again.
CREATE FUNCTION chunk_trigrams_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  trigrams text[] := show_trgm(NEW.title || ' ' || NEW.text);
BEGIN
  UPDATE chunk_trigrams SET tgv = array_to_tsvector(trigrams), tgv_len = cardinality(trigrams)
  WHERE document_id = NEW.document_id AND idx = NEW.idx;
  RETURN NULL;
END
$$;
CREATE TRIGGER chunks_trigrams_update AFTER UPDATE OF title, text ON chunks
  FOR EACH ROW EXECUTE FUNCTION chunk_trigrams_update();

ANALYZE chunk_trigrams;
