package dev.argus.knowledge.pg;

/**
 * The SQL statements of the PostgreSQL knowledge store: embedding model, vector index, documents and the vector leg
 * (schema: {@code db/migration/postgres}); the text legs' BM25 and the term statistics they read are
 * {@link PgTextSql}'s. Values are always {@code $n} bind parameters; what is concatenated is fixed text, numbers
 * from validated configuration, placeholder numbers and the conditions {@link PgFilterSql} builds (themselves
 * parameterized).
 */
final class PgSql {

  /** The HNSW cosine index on {@code chunks.embedding}. */
  static final String VECTOR_INDEX = "chunks_embedding_hnsw";

  /** The table of the keyword leg's lexemes ({@code tsv}, {@code tsv_len}): the chunks themselves. */
  static final String CHUNKS = "chunks";
  /** The table of the trigram leg's term vectors ({@code tgv}, {@code tgv_len}), a row per chunk. */
  static final String TRIGRAMS = "chunk_trigrams";

  /** The columns a search hit is mapped from (see {@code PgSearchLegs.toScored}), on alias {@code c}. */
  static final String SCORED_COLUMNS = "c.document_id, c.namespace, c.title, c.idx, c.total, c.text, c.metadata";

  // ---------------------------------------------------------------- embedding model and vector index

  /** A transaction-scoped advisory lock on the key $1. */
  static final String LOCK = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";
  static final String EMBEDDING_MODEL = "SELECT model, dimension FROM embedding_model WHERE id = 1";
  static final String RECORD_EMBEDDING_MODEL = "INSERT INTO embedding_model (id, model, dimension) VALUES (1, $1, $2)";
  static final String EMBEDDING_TYPMOD =
      "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'";
  static final String DROP_VECTOR_INDEX = "DROP INDEX IF EXISTS " + VECTOR_INDEX;

  /** Types the embedding column (the dimension comes from validated configuration, never from user input). */
  static String typeEmbedding(int dimension) {
    return "ALTER TABLE chunks ALTER COLUMN embedding TYPE vector(" + dimension + ")";
  }

  /** The definition of the HNSW index as it stands ({@code indexdef}; no row when there is none). */
  static final String VECTOR_INDEX_DEFINITION =
      "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = '" + VECTOR_INDEX + "'";

  /**
   * The embedding as the HNSW index holds it: half precision (2 bytes a dimension instead of 4). The index is
   * 112 MB instead of 195 MB at 100,000 chunks of 384 dimensions, so more of it stays in shared buffers; measured
   * with the server's default 128 MB, an ef_search 200 scan took 7.1-8.0 ms instead of 10.8-11.9 ms with the
   * same recall@10 (1.000 against the exact scan on 100 queries). The hits' order and scores are computed again
   * on the full-precision vectors ({@link #vectorSql}).
   */
  static String halfEmbedding(String vector, int dimension) {
    return "((" + vector + ")::halfvec(" + dimension + "))";
  }

  /** The HNSW cosine index over {@link #halfEmbedding}, with build parameters from validated configuration. */
  static String createVectorIndex(int dimension, int m, int efConstruction) {
    return "CREATE INDEX IF NOT EXISTS " + VECTOR_INDEX + " ON chunks USING hnsw ("
        + halfEmbedding("embedding", dimension) + " halfvec_cosine_ops)"
        + " WITH (m = " + m + ", ef_construction = " + efConstruction + ")";
  }

  /** Whether an index definition is the one {@link #createVectorIndex} makes for {@code dimension}. */
  static boolean isCurrentVectorIndex(String indexDefinition, int dimension) {
    return indexDefinition.contains("halfvec(" + dimension + ")") && indexDefinition.contains("halfvec_cosine_ops");
  }

  // ---------------------------------------------------------------- documents

  static final String CONTENT_HASH = "SELECT content_hash FROM documents WHERE id = $1";
  static final String DELETE_CHUNKS = "DELETE FROM chunks WHERE document_id = $1";
  /** $1 id, $2..$8 namespace, title, source, text, metadata, content hash, chunk count; $9 updated_at or NULL (now). */
  static final String UPDATE_DOCUMENT = "UPDATE documents SET namespace = $2, title = $3, source = $4, text = $5,"
      + " metadata = $6::jsonb, content_hash = $7, chunk_count = $8,"
      + " updated_at = coalesce($9::timestamptz, clock_timestamp()) WHERE id = $1";
  /** As {@link #UPDATE_DOCUMENT}, and $9 created_at, $10 updated_at (each NULL for now). */
  static final String INSERT_DOCUMENT = "INSERT INTO documents (id, namespace, title, source, text, metadata, content_hash,"
      + " chunk_count, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8,"
      + " coalesce($9::timestamptz, clock_timestamp()), coalesce($10::timestamptz, $9::timestamptz, clock_timestamp()))";
  /** All chunks of document $1 in one statement: $2 total, $3..$5 the document's copies, then the chunk arrays. */
  static final String INSERT_CHUNKS = "INSERT INTO chunks (document_id, idx, total, text, namespace, title, metadata, embedding)"
      + " SELECT $1, t.idx, $2, t.txt, $3, $4, $5::jsonb, t.emb::vector"
      + " FROM unnest($6::int[], $7::text[], $8::text[]) AS t(idx, txt, emb)";
  static final String DELETE_DOCUMENT = "DELETE FROM documents WHERE id = $1";
  static final String DOCUMENT = "SELECT id, namespace, title, source, text, metadata, content_hash, chunk_count, created_at,"
      + " updated_at FROM documents WHERE id = $1";
  static final String CHUNK_RANGE = "SELECT document_id, idx, total, text FROM chunks WHERE document_id = $1"
      + " AND idx BETWEEN $2 AND $3 ORDER BY idx";
  /** Documents without their text, newest first: $1 namespace or NULL for all, $2 limit, $3 offset. */
  static final String DOCUMENT_PAGE = "SELECT id, namespace, title, source, NULL::text AS text, metadata,"
      + " content_hash, chunk_count, created_at, updated_at FROM documents WHERE ($1::text IS NULL OR namespace = $1)"
      + " ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3";
  static final String COUNT_DOCUMENTS = "SELECT count(*) FROM documents WHERE ($1::text IS NULL OR namespace = $1)";
  static final String NAMESPACES = "SELECT DISTINCT namespace FROM documents ORDER BY namespace";
  /** Whether some document's metadata has the top-level key $1 (a scan of the narrow documents table). */
  static final String HAS_METADATA_KEY = "SELECT EXISTS (SELECT 1 FROM documents WHERE metadata ? $1) AS present";
  /** chunks, declared chunk count, chunks without embedding, vector?, pg_trgm?, HNSW index?, model, dimension. */
  static final String CONSISTENCY = "SELECT (SELECT count(*) FROM chunks), "
      + "(SELECT coalesce(sum(chunk_count), 0)::bigint FROM documents), "
      + "(SELECT count(*) FROM chunks WHERE embedding IS NULL), "
      + "EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector'), "
      + "EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'), "
      + "EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = '" + VECTOR_INDEX + "'), "
      + "(SELECT model FROM embedding_model WHERE id = 1), (SELECT dimension FROM embedding_model WHERE id = 1)";

  static final String STATS = "SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks),"
      + " (SELECT model FROM embedding_model WHERE id = 1), (SELECT dimension FROM embedding_model WHERE id = 1)";

  // ---------------------------------------------------------------- vector leg

  static final String BEGIN = "BEGIN";
  static final String COMMIT = "COMMIT";
  /**
   * Keeps the planner off sequential scans for the rest of the transaction, and off JIT compilation: a scan no
   * index can replace (a fresh table's row count) keeps its disable cost of 10^10, which takes the plan far over
   * {@code jit_above_cost}, and compiling it took about a second (a trigram search on a store of one chunk: 1,112
   * ms with JIT, 3.4 ms without).
   */
  private static final String SEQSCAN_OFF = "set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)";
  /** For the vector leg's transaction: $1 ef_search, $2 the iterative scan mode, and no sequential scan. */
  static final String VECTOR_SETTINGS = "SELECT set_config('hnsw.ef_search', $1, true),"
      + " set_config('hnsw.iterative_scan', $2, true), " + SEQSCAN_OFF;
  /** For the trigram leg's transaction: no sequential scan of the trigram table (see {@code PgSearchLegs}). */
  static final String NO_SEQUENTIAL_SCAN = "SELECT " + SEQSCAN_OFF;
  /** For the repeat of a vector query as an exact scan (a selective filter left the index scan short). */
  static final String EXACT_SCAN = "SELECT set_config('enable_indexscan', 'off', true)";

  /**
   * Nearest chunks to $1 (pgvector text), filter conditions and limit appended ({@link PgFilterSql#clauses}): found
   * through the HNSW index on
   * the half-precision embeddings, then scored and sorted on the full-precision ones (the relaxed scan's order is
   * not exact either). The query vector is parsed once ({@code q}), not once per row as {@code $1::text::vector}
   * would be in a generic plan (measured at 100,000 chunks: 1.5-2 ms more for 30 rows).
   */
  static String vectorSql(int dimension, PgFilterSql.Clauses clauses) {
    return nearestSql(halfEmbedding("c.embedding", dimension) + " <=> (SELECT " + halfEmbedding("q.v", dimension)
        + " FROM q)", clauses);
  }

  /** As {@link #vectorSql}, ordered by the full-precision distance: the exact scan, which no index serves. */
  static String exactVectorSql(PgFilterSql.Clauses clauses) {
    return nearestSql(QUERY_DISTANCE, clauses);
  }

  /** The full-precision distance to the query vector, parsed once in {@code q}. */
  private static final String QUERY_DISTANCE = "c.embedding <=> (SELECT q.v FROM q)";

  private static String nearestSql(String order, PgFilterSql.Clauses clauses) {
    return "WITH q AS MATERIALIZED (SELECT $1::text::vector AS v), hits AS MATERIALIZED (SELECT " + SCORED_COLUMNS
        + ", " + QUERY_DISTANCE + " AS distance FROM chunks c WHERE c.embedding IS NOT NULL" + clauses.where()
        + " ORDER BY " + order + clauses.limit() + ")"
        + " SELECT *, 1 - distance AS score FROM hits ORDER BY distance, document_id, idx";
  }

  private PgSql() {
  }
}
