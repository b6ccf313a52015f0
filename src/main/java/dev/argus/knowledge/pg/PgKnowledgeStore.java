package dev.argus.knowledge.pg;

import dev.argus.config.PgConf;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.DocumentPage;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.StoreStats;
import dev.argus.knowledge.UpsertResult;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The production {@link KnowledgeStore} on PostgreSQL (vertx-pg-client): vectors in a pgvector column with an
 * HNSW cosine index; keyword search on a generated weighted {@code tsvector} (GIN) with OR semantics over the
 * analysed query terms; trigram search on a vector of pg_trgm trigrams (GIN) in a narrow table of its own,
 * {@code chunk_trigrams}, kept in step with the chunks by triggers. Both text legs rank by
 * BM25 from the planner's term statistics. Every statement is parameterized.
 *
 * <p>By concern: {@link PgDocuments} (model identity and vector index, writes, document reads),
 * {@link PgSearchLegs} (the three retrieval legs), {@link PgSql} (every statement, BM25 included).
 */
public final class PgKnowledgeStore implements KnowledgeStore {

  /** Refreshes the planner statistics of the knowledge tables, for whoever just bulk-loaded them. */
  public static final String ANALYZE_AFTER_BULK_LOAD = PgTextSql.ANALYZE_KNOWLEDGE_TABLES;

  private final PgDocuments documents;
  private final PgSearchLegs legs;

  public PgKnowledgeStore(Database db, PgConf conf) {
    this(db.pool(), conf);
  }

  public PgKnowledgeStore(Pool pool, PgConf conf) {
    this.documents = new PgDocuments(pool, conf);
    this.legs = new PgSearchLegs(pool, conf);
  }

  @Override
  public String type() {
    return "postgres";
  }

  @Override
  public Future<Void> checkEmbeddingModel(String model, int dimension) {
    return documents.checkEmbeddingModel(model, dimension);
  }

  @Override
  public Future<Optional<String>> contentHash(String documentId) {
    return documents.contentHash(documentId);
  }

  @Override
  public Future<UpsertResult> upsert(Document document, List<Chunk> chunks) {
    return documents.write(document, chunks, false);
  }

  /**
   * Like {@link #upsert} but keeps the document's own {@code createdAt}/{@code updatedAt} (when set) and content
   * hash: used by {@code argus migrate-store} to copy a store without changing its history.
   */
  public Future<UpsertResult> copy(Document document, List<Chunk> chunks) {
    return documents.write(document, chunks, true);
  }

  @Override
  public Future<Optional<Document>> document(String id) {
    return documents.document(id);
  }

  @Override
  public Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return documents.chunks(documentId, fromIndex, toIndex);
  }

  @Override
  public Future<DocumentPage> list(String namespace, int offset, int limit) {
    return documents.list(namespace, offset, limit);
  }

  @Override
  public Future<Boolean> delete(String id) {
    return documents.delete(id);
  }

  @Override
  public Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    return legs.vectorSearch(query, k, filter);
  }

  @Override
  public Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    return legs.keywordSearch(query, k, filter);
  }

  @Override
  public Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    return legs.trigramSearch(query, k, filter);
  }

  /** The text legs' term statistics held in memory (package-private: for tests). */
  PgTermStatistics termStatistics() {
    return legs.termStatistics();
  }

  @Override
  public Future<Set<String>> namespaces() {
    return documents.namespaces();
  }

  @Override
  public Future<Boolean> hasMetadataKey(String key) {
    return documents.hasMetadataKey(key);
  }

  @Override
  public Future<java.util.List<dev.argus.knowledge.ConsistencyCheck>> consistency() {
    return documents.consistency();
  }

  @Override
  public Future<StoreStats> stats() {
    return documents.stats(type());
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture(); // the pool belongs to the Database
  }
}
