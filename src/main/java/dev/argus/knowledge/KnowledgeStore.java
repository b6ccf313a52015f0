package dev.argus.knowledge;

import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Documents, chunks, vectors and the three retrieval legs. Two implementations (embedded SQLite and
 * PostgreSQL) pass one contract test suite. Every method is non-blocking; implementations run their
 * blocking or CPU-heavy work off the event loop. Implementations are safe to share between verticles.
 */
public interface KnowledgeStore {

  /** A short name: {@code sqlite} or {@code postgres}. */
  String type();

  /**
   * Records the embedding model on first use; fails with {@link EmbeddingModelMismatchException} when the
   * store already holds vectors of another model or dimension (re-embedding is a deliberate command).
   */
  Future<Void> checkEmbeddingModel(String model, int dimension);

  /** The content hash stored for a document id, if the document exists (lets ingestion skip re-embedding). */
  Future<Optional<String>> contentHash(String documentId);

  /**
   * Writes a document and all its chunks in one transaction. Same id and same content hash: nothing changes
   * ({@code UNCHANGED}). Same id, new content: the old chunks are replaced atomically ({@code REPLACED}).
   * On any failure nothing of the document is stored (and a previous version stays intact).
   */
  Future<UpsertResult> upsert(Document document, List<Chunk> chunks);

  /** The whole document, or empty. */
  Future<Optional<Document>> document(String id);

  /** Chunks of a document with {@code fromIndex <= index <= toIndex}, in order, without embeddings. */
  Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex);

  /** Documents (without text), newest first, optionally in one namespace. */
  Future<DocumentPage> list(String namespace, int offset, int limit);

  /** Deletes a document, its chunks and vectors; {@code false} if it did not exist. */
  Future<Boolean> delete(String id);

  /** Dense retrieval: cosine similarity to a unit-length query vector, best first. */
  Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter);

  /** Keyword retrieval: full-text ranking with OR semantics over the query's terms; never fails on query syntax. */
  Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter);

  /** Trigram retrieval: similarity for typos and identifiers (emails, seller ids, IBAN-like strings). */
  Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter);

  /** The namespaces that hold at least one document. */
  Future<Set<String>> namespaces();

  /**
   * Whether some document's metadata has the top-level field {@code key} (a chunk's metadata is its document's).
   * A filter on a field no document has matches nothing, and the search can say so without searching.
   */
  Future<Boolean> hasMetadataKey(String key);

  Future<StoreStats> stats();

  /**
   * Checks that what searches read agrees with what is stored: chunk counts against the documents' declared
   * counts; the embedded store's in-process vector and text indexes against the stored chunks; PostgreSQL's
   * extensions (vector, pg_trgm), HNSW index and missing embeddings. Counts read while a write commits may
   * disagree for that moment.
   */
  Future<java.util.List<ConsistencyCheck>> consistency();

  Future<Void> close();
}
