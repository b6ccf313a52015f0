-- Knowledge store on PostgreSQL: documents, chunks with pgvector embeddings, full-text and trigram indexes.
--
-- The embedding dimension is only known at start (384 for bge-small / all-MiniLM), so the migration creates
-- an untyped `vector` column and no vector index. PgKnowledgeStore.checkEmbeddingModel records the model
-- and, idempotently and under an advisory lock, types the column as vector(<dim>) and creates the HNSW
-- index (cosine ops, m / ef_construction from pg.hnswM / pg.hnswEfConstruction). HNSW has no training
-- step, so building it on an empty table is correct (unlike IVFFlat, which is never used here).

CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One row: the embedding model whose vectors the store holds.
CREATE TABLE embedding_model (
  id         SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  model      TEXT NOT NULL,
  dimension  INTEGER NOT NULL CHECK (dimension > 0),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE documents (
  id           TEXT PRIMARY KEY,
  namespace    TEXT NOT NULL,
  title        TEXT NOT NULL DEFAULT '',
  source       TEXT,
  text         TEXT NOT NULL,
  metadata     JSONB NOT NULL DEFAULT '{}'::jsonb,
  content_hash TEXT NOT NULL,
  chunk_count  INTEGER NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX documents_namespace_updated ON documents (namespace, updated_at DESC, id DESC);
CREATE INDEX documents_updated ON documents (updated_at DESC, id DESC);
CREATE INDEX documents_title_trgm ON documents USING gin (title gin_trgm_ops);

-- Chunks carry a copy of their document's namespace, title and metadata so that every retriever filters
-- and ranks inside one table (filters stay inside the index scan; no join before the top-k cut). The copy
-- is written in the same transaction as the document and replaced with it.
CREATE TABLE chunks (
  document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  idx         INTEGER NOT NULL,
  total       INTEGER NOT NULL,
  text        TEXT NOT NULL,
  namespace   TEXT NOT NULL,
  title       TEXT NOT NULL DEFAULT '',
  metadata    JSONB NOT NULL DEFAULT '{}'::jsonb,
  embedding   vector,
  tsv         tsvector GENERATED ALWAYS AS (
                setweight(to_tsvector('english', coalesce(title, '')), 'A')
                || setweight(to_tsvector('english', text), 'B')) STORED,
  PRIMARY KEY (document_id, idx)
);
-- Keyword ranking reads lexeme document frequencies (IDF) from the planner's statistics on tsv: keep many of them.
ALTER TABLE chunks ALTER COLUMN tsv SET STATISTICS 1000;
CREATE INDEX chunks_namespace ON chunks (namespace);
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
CREATE INDEX chunks_text_trgm ON chunks USING gin (text gin_trgm_ops);
CREATE INDEX chunks_title_trgm ON chunks USING gin (title gin_trgm_ops);
CREATE INDEX chunks_metadata ON chunks USING gin (metadata jsonb_path_ops);
