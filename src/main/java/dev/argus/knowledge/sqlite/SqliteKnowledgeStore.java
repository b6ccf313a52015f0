package dev.argus.knowledge.sqlite;

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

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The embedded knowledge store on one SQLite file (see {@code db/migration/sqlite/V1__knowledge.sql}):
 * documents and chunks in tables, vectors stored as BLOBs and searched exactly in process by {@link VectorIndex},
 * keyword (BM25 over stemmed words) and trigram search in an in-memory Lucene index ({@link TextIndex}); both
 * indexes are loaded at open and updated after each committed change. Writes of this process are serialized ({@link SerialWrites}); reads
 * run concurrently through the pool.
 *
 * <p>By concern: {@link SqliteDocuments} (model identity, writes, document reads), {@link SqliteSearchLegs} (the
 * three retrieval legs), {@link SqliteSql} (every statement). This class opens them, refuses calls once closed,
 * and closes them.
 */
public final class SqliteKnowledgeStore implements KnowledgeStore {

  private static final Logger LOG = Logger.getLogger(SqliteKnowledgeStore.class.getName());

  private final VectorIndex index;
  private final SqliteDocuments documents;
  private final SqliteSearchLegs legs;
  private volatile boolean closed;

  private SqliteKnowledgeStore(Database db, DotProduct kernel) {
    this.index = new VectorIndex(kernel);
    TextIndex text = new TextIndex();
    this.documents = new SqliteDocuments(db, index, text);
    this.legs = new SqliteSearchLegs(db.vertx(), index, text);
  }

  /** Opens the store over a migrated SQLite database and loads its vectors into memory. */
  public static Future<KnowledgeStore> open(Database db) {
    if (db.dialect() != Database.Dialect.SQLITE) {
      return Future.failedFuture(new IllegalArgumentException("SqliteKnowledgeStore needs a SQLite database, got " + db));
    }
    SqliteKnowledgeStore store = new SqliteKnowledgeStore(db, DotProduct.best());
    long start = System.nanoTime();
    return store.documents.load().map(v -> {
      LOG.info("knowledge store " + db + ": " + store.index.size() + " vectors and their text indexed in "
          + (System.nanoTime() - start) / 1_000_000 + " ms (scan kernel " + store.index.kernel() + ")");
      return store;
    });
  }

  @Override
  public String type() {
    return "sqlite";
  }

  @Override
  public Future<Void> checkEmbeddingModel(String model, int dimension) {
    return guarded(() -> documents.checkEmbeddingModel(model, dimension));
  }

  @Override
  public Future<Optional<String>> contentHash(String documentId) {
    return guarded(() -> documents.contentHash(documentId));
  }

  @Override
  public Future<UpsertResult> upsert(Document document, List<Chunk> chunks) {
    return guarded(() -> documents.upsert(document, chunks));
  }

  @Override
  public Future<Optional<Document>> document(String id) {
    return guarded(() -> documents.document(id));
  }

  @Override
  public Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return guarded(() -> documents.chunks(documentId, fromIndex, toIndex));
  }

  @Override
  public Future<DocumentPage> list(String namespace, int offset, int limit) {
    return guarded(() -> documents.list(namespace, offset, limit));
  }

  @Override
  public Future<Boolean> delete(String id) {
    return guarded(() -> documents.delete(id));
  }

  @Override
  public Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    return guarded(() -> legs.vectorSearch(query, k, filter));
  }

  @Override
  public Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    return guarded(() -> legs.keywordSearch(query, k, filter));
  }

  @Override
  public Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    return guarded(() -> legs.trigramSearch(query, k, filter));
  }

  @Override
  public Future<Set<String>> namespaces() {
    return guarded(documents::namespaces);
  }

  @Override
  public Future<Boolean> hasMetadataKey(String key) {
    return guarded(() -> documents.hasMetadataKey(key));
  }

  @Override
  public Future<java.util.List<dev.argus.knowledge.ConsistencyCheck>> consistency() {
    return guarded(() -> documents.consistency());
  }

  @Override
  public Future<StoreStats> stats() {
    return guarded(() -> documents.stats(type()));
  }

  @Override
  public Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    return documents.close(); // the pool belongs to Database
  }

  private <T> Future<T> guarded(Supplier<Future<T>> action) {
    if (closed) {
      return Future.failedFuture(new IllegalStateException("the knowledge store is closed"));
    }
    return action.get();
  }
}
