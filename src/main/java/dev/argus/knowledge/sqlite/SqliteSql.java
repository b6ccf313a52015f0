package dev.argus.knowledge.sqlite;

/**
 * Every SQL statement of the embedded knowledge store, in one place (schema: {@code db/migration/sqlite}).
 * Values are always {@code ?} bind parameters; what is concatenated is fixed text, placeholder lists and the
 * conditions {@link MetadataFilters} builds (themselves parameterized).
 */
final class SqliteSql {

  // ---------------------------------------------------------------- open and model identity

  static final String META = "SELECT key, value FROM store_meta";
  static final String PUT_META =
      "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value";
  /** What the vector scan needs of every document. */
  static final String DOCUMENT_OWNERS = "SELECT id, namespace, metadata FROM documents";
  /** A page of chunks to index (vector, position, text, the document's title): after chunk id ?, at most ? rows. */
  static final String CHUNK_PAGE = "SELECT c.id AS id, c.document_id AS document_id, c.embedding AS embedding, "
      + "c.idx AS idx, c.total AS total, c.text AS text, d.title AS title FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id > ? "
      + "ORDER BY c.id LIMIT ?";

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
  /** Whether some document's metadata has the top-level field at the JSON path ? ({@code $."key"}). */
  static final String HAS_METADATA_KEY =
      "SELECT EXISTS (SELECT 1 FROM documents WHERE json_type(metadata, ?) IS NOT NULL) AS present";
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

  private SqliteSql() {
  }
}
