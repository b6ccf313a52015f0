-- Knowledge store, embedded dialect (SQLite, FTS5).
-- Documents are kept whole (small-to-big retrieval); chunks carry their position, text and a
-- little-endian float32 embedding. Two contentless FTS5 indexes (word and trigram) mirror the chunks
-- through triggers, so they change in the same transaction as the chunks.

CREATE TABLE documents (
  id            TEXT    PRIMARY KEY,
  namespace     TEXT    NOT NULL,
  title         TEXT    NOT NULL,
  source        TEXT,
  text          TEXT    NOT NULL,
  metadata      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
  content_hash  TEXT    NOT NULL,
  chunk_count   INTEGER NOT NULL,
  created_at    INTEGER NOT NULL,  -- epoch milliseconds
  updated_at    INTEGER NOT NULL   -- epoch milliseconds
);

CREATE INDEX documents_namespace_updated ON documents (namespace, updated_at DESC);
CREATE INDEX documents_updated ON documents (updated_at DESC);

CREATE TABLE chunks (
  id           INTEGER PRIMARY KEY,
  document_id  TEXT    NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  idx          INTEGER NOT NULL,
  total        INTEGER NOT NULL,
  text         TEXT    NOT NULL,
  embedding    BLOB,               -- float32 little-endian, unit length
  UNIQUE (document_id, idx)
);

-- Identity of the embedding model whose vectors the store holds: keys 'embedding_model', 'embedding_dimension'.
CREATE TABLE store_meta (
  key    TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);

-- Keyword search: BM25 over title (weighted higher at query time) and chunk text.
CREATE VIRTUAL TABLE chunks_fts USING fts5 (
  title, text,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Trigram search: typos and identifiers (emails, seller ids, IBAN-like strings).
CREATE VIRTUAL TABLE chunks_trigram USING fts5 (
  title, text,
  content = '', contentless_delete = 1,
  tokenize = 'trigram remove_diacritics 1'
);

-- Document frequency of each trigram: long queries keep only their rarest trigrams.
CREATE VIRTUAL TABLE chunks_trigram_vocab USING fts5vocab (chunks_trigram, 'row');

CREATE TRIGGER chunks_after_insert AFTER INSERT ON chunks
BEGIN
  INSERT INTO chunks_fts (rowid, title, text)
    SELECT new.id, d.title, new.text FROM documents d WHERE d.id = new.document_id;
  INSERT INTO chunks_trigram (rowid, title, text)
    SELECT new.id, d.title, new.text FROM documents d WHERE d.id = new.document_id;
END;

CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks
BEGIN
  DELETE FROM chunks_fts WHERE rowid = old.id;
  DELETE FROM chunks_trigram WHERE rowid = old.id;
END;
