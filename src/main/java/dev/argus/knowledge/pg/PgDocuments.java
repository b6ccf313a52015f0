package dev.argus.knowledge.pg;

import com.pgvector.PGvector;
import dev.argus.common.Errors;
import dev.argus.config.PgConf;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.DocumentDigest;
import dev.argus.knowledge.DocumentPage;
import dev.argus.knowledge.EmbeddingModelMismatchException;
import dev.argus.knowledge.StoreStats;
import dev.argus.knowledge.UpsertResult;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Documents and writes of the PostgreSQL store: the recorded embedding model and the vector index it types, upserts
 * and deletes (one transaction each, serialized per document by an advisory lock, a document's chunks inserted in
 * one statement), and the document reads.
 */
final class PgDocuments {

  private static final Logger LOG = Logger.getLogger(PgDocuments.class.getName());

  private final Pool pool;
  private final PgConf conf;

  PgDocuments(Pool pool, PgConf conf) {
    this.pool = pool;
    this.conf = conf;
  }

  // ---------------------------------------------------------------- embedding model and vector index

  Future<Void> checkEmbeddingModel(String model, int dimension) {
    if (dimension <= 0) {
      return Future.failedFuture(new IllegalArgumentException("embedding dimension must be positive: " + dimension));
    }
    return pool.withTransaction(conn -> lock(conn, "argus.embedding_model")
        .compose(v -> conn.query(PgSql.EMBEDDING_MODEL).execute())
        .compose(rows -> {
          if (rows.size() == 0) {
            return conn.preparedQuery(PgSql.RECORD_EMBEDDING_MODEL).execute(Tuple.of(model, dimension)).<Void>mapEmpty();
          }
          Row row = rows.iterator().next();
          String storedModel = row.getString("model");
          int storedDimension = row.getInteger("dimension");
          if (storedModel.equals(model) && storedDimension == dimension) {
            return Future.<Void>succeededFuture();
          }
          return Future.<Void>failedFuture(new EmbeddingModelMismatchException(storedModel, storedDimension, model, dimension));
        })
        .compose(v -> ensureVectorIndex(conn, dimension)));
  }

  /**
   * Types the embedding column as {@code vector(dimension)} (the migration leaves it untyped because the
   * dimension is only known at start) and creates the HNSW cosine index, both idempotently. An index of an
   * earlier release (over the full-precision vectors) is replaced by the half-precision one
   * ({@link PgSql#halfEmbedding}): a one-time rebuild at start, logged, which takes about 40 s per 100,000 chunks.
   */
  private Future<Void> ensureVectorIndex(SqlConnection conn, int dimension) {
    return conn.query(PgSql.EMBEDDING_TYPMOD).execute()
        .compose(rows -> {
          int typmod = rows.iterator().next().getInteger(0);
          if (typmod == dimension) {
            return Future.<Void>succeededFuture();
          }
          return conn.query(PgSql.DROP_VECTOR_INDEX).execute()
              .compose(v -> conn.query(PgSql.typeEmbedding(dimension)).execute())
              .<Void>mapEmpty();
        })
        .compose(v -> conn.query(PgSql.VECTOR_INDEX_DEFINITION).execute())
        .compose(rows -> {
          if (rows.size() == 0 || PgSql.isCurrentVectorIndex(rows.iterator().next().getString(0), dimension)) {
            return Future.<Void>succeededFuture();
          }
          LOG.info("replacing the HNSW index " + PgSql.VECTOR_INDEX + " by one over half-precision embeddings"
              + " (a one-time rebuild)");
          return conn.query(PgSql.DROP_VECTOR_INDEX).execute().<Void>mapEmpty();
        })
        .compose(v -> conn.query(PgSql.createVectorIndex(dimension, conf.hnswM(), conf.hnswEfConstruction())).execute())
        .mapEmpty();
  }

  private static Future<Void> lock(SqlConnection conn, String key) {
    return conn.preparedQuery(PgSql.LOCK).execute(Tuple.of(key)).mapEmpty();
  }

  // ---------------------------------------------------------------- writes

  Future<Optional<String>> contentHash(String documentId) {
    return pool.preparedQuery(PgSql.CONTENT_HASH).execute(Tuple.of(documentId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  /**
   * Writes a document and its chunks in one transaction. With {@code keepTimestamps} the document's own
   * {@code createdAt}/{@code updatedAt} (when set) are kept, for copying a store without changing its history.
   */
  Future<UpsertResult> write(Document document, List<Chunk> chunks, boolean keepTimestamps) {
    String id = document.id();
    if (id == null || id.isBlank()) {
      return Future.failedFuture(new IllegalArgumentException("a document needs an id"));
    }
    String namespace = document.namespace() == null ? Document.DEFAULT_NAMESPACE : document.namespace();
    String title = PgValues.clean(document.title() == null ? "" : document.title());
    String text = PgValues.clean(document.text() == null ? "" : document.text());
    JsonObject metadata = document.metadata() == null ? new JsonObject() : document.metadata();
    String hash = document.contentHash() != null ? document.contentHash()
        : DocumentDigest.of(namespace, title, document.source(), text, metadata);
    OffsetDateTime created = keepTimestamps && document.createdAt() != null ? document.createdAt().atOffset(ZoneOffset.UTC) : null;
    OffsetDateTime updated = keepTimestamps && document.updatedAt() != null ? document.updatedAt().atOffset(ZoneOffset.UTC) : null;
    int total = chunks.size();
    Integer[] indexes = new Integer[total];
    String[] texts = new String[total];
    String[] vectors = new String[total];
    for (int i = 0; i < total; i++) {
      Chunk c = chunks.get(i);
      indexes[i] = c.index();
      texts[i] = PgValues.clean(c.text());
      vectors[i] = c.embedding() == null ? null : new PGvector(c.embedding()).toString();
    }
    Future<UpsertResult> written = pool.withTransaction(conn -> lock(conn, "argus.doc:" + id)
        .compose(v -> conn.preparedQuery(PgSql.CONTENT_HASH).execute(Tuple.of(id)))
        .compose(rows -> {
          boolean exists = rows.size() > 0;
          if (exists && hash.equals(rows.iterator().next().getString(0))) {
            return Future.succeededFuture(new UpsertResult(id, UpsertResult.Outcome.UNCHANGED, total));
          }
          Future<?> doc = exists
              ? conn.preparedQuery(PgSql.DELETE_CHUNKS).execute(Tuple.of(id))
                  .compose(v -> conn.preparedQuery(PgSql.UPDATE_DOCUMENT).execute(Tuple.from(new Object[] {
                      id, namespace, title, document.source(), text, metadata, hash, total, updated})))
              : conn.preparedQuery(PgSql.INSERT_DOCUMENT).execute(Tuple.from(new Object[] {
                  id, namespace, title, document.source(), text, metadata, hash, total, created, updated}));
          return doc
              .compose(v -> total == 0 ? Future.succeededFuture() : conn.preparedQuery(PgSql.INSERT_CHUNKS)
                  .execute(Tuple.from(new Object[] {id, total, namespace, title, metadata, indexes, texts, vectors})))
              .map(v -> new UpsertResult(id, exists ? UpsertResult.Outcome.REPLACED : UpsertResult.Outcome.CREATED, total));
        }));
    return written.recover(err -> Future.failedFuture(new PgStoreException(
        "document '" + id + "' was not stored (nothing of it was written): " + Errors.rootMessage(err), err)));
  }

  Future<Boolean> delete(String id) {
    return pool.withTransaction(conn -> lock(conn, "argus.doc:" + id)
        .compose(v -> conn.preparedQuery(PgSql.DELETE_DOCUMENT).execute(Tuple.of(id)))
        .map(rows -> rows.rowCount() > 0));
  }

  // ---------------------------------------------------------------- reads

  Future<Optional<Document>> document(String id) {
    return pool.preparedQuery(PgSql.DOCUMENT).execute(Tuple.of(id))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(toDocument(rows.iterator().next(), true)));
  }

  Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return pool.preparedQuery(PgSql.CHUNK_RANGE).execute(Tuple.of(documentId, fromIndex, toIndex))
        .map(rows -> {
          List<Chunk> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            out.add(new Chunk(r.getString(0), r.getInteger(1), r.getInteger(2), r.getString(3), null));
          }
          return out;
        });
  }

  Future<DocumentPage> list(String namespace, int offset, int limit) {
    Future<RowSet<Row>> page = pool.preparedQuery(PgSql.DOCUMENT_PAGE)
        .execute(Tuple.of(namespace, Math.max(0, limit), Math.max(0, offset)));
    Future<RowSet<Row>> count = pool.preparedQuery(PgSql.COUNT_DOCUMENTS).execute(Tuple.of(namespace));
    return Future.all(page, count).map(v -> {
      List<Document> docs = new ArrayList<>();
      for (Row r : page.result()) {
        docs.add(toDocument(r, false));
      }
      return new DocumentPage(docs, count.result().iterator().next().getLong(0));
    });
  }

  Future<Set<String>> namespaces() {
    return pool.query(PgSql.NAMESPACES).execute().map(rows -> {
      Set<String> out = new LinkedHashSet<>();
      for (Row r : rows) {
        out.add(r.getString(0));
      }
      return out;
    });
  }

  Future<Boolean> hasMetadataKey(String key) {
    return pool.preparedQuery(PgSql.HAS_METADATA_KEY).execute(Tuple.of(key))
        .map(rows -> rows.iterator().next().getBoolean(0));
  }

  /** Declared against stored chunks, embeddings missing, the extensions and the HNSW index Argus needs. */
  Future<java.util.List<dev.argus.knowledge.ConsistencyCheck>> consistency() {
    return pool.query(PgSql.CONSISTENCY).execute().map(rows -> {
      Row r = rows.iterator().next();
      long chunks = r.getLong(0);
      long declared = r.getLong(1);
      long missing = r.getLong(2);
      boolean vector = r.getBoolean(3);
      boolean trgm = r.getBoolean(4);
      boolean hnsw = r.getBoolean(5);
      String model = r.getString(6);
      return java.util.List.of(
          new dev.argus.knowledge.ConsistencyCheck("chunk_counts", chunks == declared,
              chunks + " chunks stored, documents declare " + declared),
          new dev.argus.knowledge.ConsistencyCheck("vector_index", missing == 0 && hnsw,
              missing + " chunks without an embedding; HNSW index " + (hnsw ? "present" : "missing")),
          new dev.argus.knowledge.ConsistencyCheck("extensions", vector && trgm,
              "vector " + (vector ? "installed" : "missing") + ", pg_trgm " + (trgm ? "installed" : "missing")),
          new dev.argus.knowledge.ConsistencyCheck("embedding_model", model != null || chunks == 0,
              model == null ? "no embedding model recorded" : "recorded " + model + " (" + r.getInteger(7) + ")"));
    });
  }

  Future<StoreStats> stats(String type) {
    return pool.query(PgSql.STATS).execute().map(rows -> {
      Row r = rows.iterator().next();
      Integer dim = r.getInteger(3);
      return new StoreStats(type, r.getLong(0), r.getLong(1), r.getString(2), dim == null ? 0 : dim);
    });
  }

  private static Document toDocument(Row r, boolean withText) {
    return new Document(r.getString("id"), r.getString("namespace"), r.getString("title"), r.getString("source"),
        withText ? r.getString("text") : null, PgValues.json(r, "metadata"), r.getString("content_hash"),
        r.getInteger("chunk_count"), instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("updated_at")));
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
