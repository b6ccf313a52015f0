-- The keyword and trigram legs moved from FTS5 to an in-process Lucene index derived from the chunks
-- (knowledge.sqlite.TextIndex, built at open like the vector index). The FTS5 tables and the triggers that
-- filled them on every chunk write are no longer read: drop them (writes get cheaper, the file smaller).
DROP TRIGGER IF EXISTS chunks_after_insert;
DROP TRIGGER IF EXISTS chunks_after_delete;
DROP TABLE IF EXISTS chunks_trigram_vocab;
DROP TABLE IF EXISTS chunks_trigram;
DROP TABLE IF EXISTS chunks_fts;
