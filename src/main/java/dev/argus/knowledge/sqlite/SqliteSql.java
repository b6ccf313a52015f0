package dev.argus.knowledge.sqlite;

/**
 * Every SQL statement of the embedded knowledge store, in one place (schema: {@code db/migration/sqlite}).
 * Values are always {@code ?} bind parameters; what is concatenated is fixed text, placeholder lists and the
 * conditions {@link MetadataFilters} builds (themselves parameterized).
 */
final class SqliteSql {

  /** The FTS5 table of the keyword leg (unicode61 tokenizer with Porter stemming over title and text). */
  static final String KEYWORD_TABLE = "chunks_fts";
  /** The FTS5 table of the trigram leg (trigram tokenizer over title and text). */
  static final String TRIGRAM_TABLE = "chunks_trigram";

  /** Columns of a search hit (see {@code SqliteSearchLegs.toHit}); the score column is appended per leg. */
  static final String HIT_COLUMNS = "c.id AS chunk_id, c.document_id AS document_id, c.idx AS idx, "
      + "c.total AS total, c.text AS text, d.namespace AS namespace, d.title AS title, d.metadata AS metadata";

  // ---------------------------------------------------------------- open and model identity

  static final String META = "SELECT key, value FROM store_meta";
  static final String PUT_META =
      "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value";
  /** What the vector scan needs of every document. */
  static final String DOCUMENT_OWNERS = "SELECT id, namespace, metadata FROM documents";
  /** A page of stored vectors: after chunk id ?, at most ? rows. */
  static final String VECTOR_PAGE = "SELECT id, document_id, embedding FROM chunks WHERE id > ? AND embedding IS NOT NULL "
      + "ORDER BY id LIMIT ?";

  // ---------------------------------------------------------------- writes

  static final String CONTENT_HASH = "SELECT content_hash FROM documents WHERE id = ?";
  static final String EXISTING = "SELECT content_hash, created_at FROM documents WHERE id = ?";
  static final String INSERT_DOCUMENT = "INSERT INTO documents (id, namespace, title, source, text, metadata, content_hash, "
      + "chunk_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  static final String UPDATE_DOCUMENT = "UPDATE documents SET namespace = ?, title = ?, source = ?, text = ?, "
      + "metadata = ?, content_hash = ?, chunk_count = ?, updated_at = ? WHERE id = ?";
  static final String INSERT_CHUNK = "INSERT INTO chunks (document_id, idx, total, text, embedding) VALUES (?, ?, ?, ?, ?)";
  static final String CHUNK_IDS = "SELECT id, idx FROM chunks WHERE document_id = ? ORDER BY idx";
  static final String DELETE_CHUNKS = "DELETE FROM chunks WHERE document_id = ?";
  static final String DELETE_DOCUMENT = "DELETE FROM documents WHERE id = ?";

  // ---------------------------------------------------------------- reads

  static final String DOCUMENT = "SELECT * FROM documents WHERE id = ?";
  static final String CHUNK_RANGE = "SELECT document_id, idx, total, text FROM chunks WHERE document_id = ? "
      + "AND idx BETWEEN ? AND ? ORDER BY idx";
  static final String NAMESPACES = "SELECT DISTINCT namespace FROM documents";
  static final String STATS = "SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks";

  /** The number of documents ({@code n}), in namespace {@code ?} when {@code inNamespace}. */
  static String countDocuments(boolean inNamespace) {
    return "SELECT count(*) AS n FROM documents" + namespaceCondition(inNamespace);
  }

  /** A page of documents without their text, newest first: (namespace ?,) limit ?, offset ?. */
  static String documentPage(boolean inNamespace) {
    return "SELECT id, namespace, title, source, metadata, content_hash, chunk_count, created_at, updated_at FROM documents"
        + namespaceCondition(inNamespace) + " ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?";
  }

  private static String namespaceCondition(boolean inNamespace) {
    return inNamespace ? " WHERE namespace = ?" : "";
  }

  // ---------------------------------------------------------------- retrieval legs

  /** The document frequency ({@code doc}) of {@code terms} trigrams, from the trigram table's FTS5 vocabulary. */
  static String trigramFrequencies(int terms) {
    return "SELECT term, doc FROM chunks_trigram_vocab WHERE term IN (" + placeholders(terms) + ")";
  }

  /**
   * One FTS5 leg over {@code table}: MATCH ?, best first by BM25 (title weighted x2), at most ? hits. Without
   * filters FTS5 ranks and cuts inside the index and only the top k are joined; with filters their conditions
   * ({@code conditions}, each starting with {@code AND}, their parameters between MATCH and the limit) are part of
   * the same statement, before the LIMIT.
   */
  static String fts(String table, String conditions) {
    String ranked = "SELECT rowid AS chunk_rowid, bm25(" + table + ", 2.0, 1.0) AS rank_value FROM " + table
        + " WHERE " + table + " MATCH ?";
    String select = "SELECT " + HIT_COLUMNS + ", f.rank_value AS rank_value FROM ";
    if (conditions.isEmpty()) {
      return select + "(" + ranked + " ORDER BY rank_value LIMIT ?) f JOIN chunks c ON c.id = f.chunk_rowid"
          + " JOIN documents d ON d.id = c.document_id ORDER BY f.rank_value";
    }
    return select + "(" + ranked + ") f JOIN chunks c ON c.id = f.chunk_rowid JOIN documents d ON d.id = c.document_id"
        + " WHERE 1 = 1" + conditions + " ORDER BY f.rank_value LIMIT ?";
  }

  /** The hit columns of {@code ids} chunks, by chunk id (the vector leg's scan found them). */
  static String hitsByChunkIds(int ids) {
    return "SELECT " + HIT_COLUMNS + " FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN ("
        + placeholders(ids) + ")";
  }

  private static String placeholders(int n) {
    return "?" + ", ?".repeat(Math.max(0, n - 1));
  }

  private SqliteSql() {
  }
}
