package dev.argus.knowledge.sqlite;

import dev.argus.common.Errors;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.DocumentDigest;
import dev.argus.knowledge.DocumentPage;
import dev.argus.knowledge.EmbeddingModelMismatchException;
import dev.argus.knowledge.StoreStats;
import dev.argus.knowledge.UpsertResult;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Documents and writes of the embedded store: the recorded embedding model, upserts and deletes (serialized by
 * {@link SerialWrites}, each one transaction, the in-memory {@link VectorIndex} and {@link TextIndex} brought in line
 * after the commit), and the document reads. Loads the recorded model, the stored vectors and the chunks' text at
 * open.
 */
final class SqliteDocuments {

  private static final int LOAD_PAGE = 2048;
  private static final int MAX_PAGE = 10_000;
  private static final String META_MODEL = "embedding_model";
  private static final String META_DIMENSION = "embedding_dimension";

  private final Vertx vertx;
  private final Database db;
  private final Pool pool;
  private final VectorIndex index;
  private final TextIndex text;
  private final SerialWrites writes = new SerialWrites();
  private volatile String model;
  private volatile int dimension;

  SqliteDocuments(Database db, VectorIndex index, TextIndex text) {
    this.vertx = db.vertx();
    this.db = db;
    this.pool = db.pool();
    this.index = index;
    this.text = text;
  }

  // ---------------------------------------------------------------- open

  /** Reads the recorded embedding model and loads every stored vector and chunk text into the indexes. */
  Future<Void> load() {
    return loadMeta().compose(v -> loadIndex());
  }

  private Future<Void> loadMeta() {
    return pool.query(SqliteSql.META).execute().map(rows -> {
      for (Row r : rows) {
        String key = r.getString("key");
        if (META_MODEL.equals(key)) {
          model = r.getString("value");
        } else if (META_DIMENSION.equals(key)) {
          dimension = Integer.parseInt(r.getString("value"));
        }
      }
      return null;
    });
  }

  private Future<Void> loadIndex() {
    return pool.query(SqliteSql.DOCUMENT_OWNERS).execute().compose(rows -> {
      Map<String, VectorIndex.DocInfo> docs = new HashMap<>();
      for (Row r : rows) {
        String id = r.getString("id");
        docs.put(id, new VectorIndex.DocInfo(id, r.getString("namespace"), new JsonObject(r.getString("metadata"))));
      }
      List<Future<Void>> indexing = new ArrayList<>();
      return loadChunks(docs, 0L, indexing).compose(v -> Future.all(indexing));
    }).compose(v -> vertx.executeBlocking(() -> {
      text.refresh();
      return null;
    }, false));
  }

  /**
   * Loads the chunks page by page: the vectors of a page are appended before the next page is read; its text is
   * indexed by a task of its own ({@code indexing}), so that analysing one page overlaps reading the next and the
   * pages' analysis runs on several workers (Lucene's writer takes documents from several threads at once).
   */
  private Future<Void> loadChunks(Map<String, VectorIndex.DocInfo> docs, long afterId, List<Future<Void>> indexing) {
    return pool.preparedQuery(SqliteSql.CHUNK_PAGE)
        .execute(Tuple.of(afterId, LOAD_PAGE))
        .compose(rows -> vertx.executeBlocking(() -> {
          long last = -1;
          List<Map.Entry<VectorIndex.DocInfo, TextIndex.Entry>> texts = new ArrayList<>(rows.size());
          for (Row r : rows) {
            long id = r.getLong("id");
            VectorIndex.DocInfo doc = docs.get(r.getString("document_id"));
            if (doc != null) {
              Object embedding = r.getValue("embedding");
              if (embedding != null) {
                index.append(doc, new VectorIndex.Row(id, Vectors.decode(embedding)));
              }
              texts.add(Map.entry(doc, new TextIndex.Entry(id, r.getInteger("idx"), r.getInteger("total"),
                  r.getString("title"), r.getString("text"))));
            }
            last = id;
          }
          indexing.add(vertx.executeBlocking(() -> {
            texts.forEach(e -> text.add(e.getKey(), List.of(e.getValue())));
            return null;
          }, false));
          return rows.size() < LOAD_PAGE ? -1L : last;
        }, false))
        .compose(next -> next < 0 ? Future.succeededFuture() : loadChunks(docs, next, indexing));
  }

  // ---------------------------------------------------------------- model identity

  Future<Void> checkEmbeddingModel(String modelName, int dim) {
    if (modelName == null || modelName.isBlank() || dim <= 0) {
      return Future.failedFuture(new IllegalArgumentException("embedding model name and a positive dimension are required"));
    }
    return writes.submit(() -> {
      if (model != null) {
        if (!model.equals(modelName) || dimension != dim) {
          return Future.failedFuture(new EmbeddingModelMismatchException(model, dimension, modelName, dim));
        }
        return Future.succeededFuture();
      }
      int held = index.dimension();
      if (held != 0 && held != dim) {
        return Future.failedFuture(new EmbeddingModelMismatchException("(unrecorded)", held, modelName, dim));
      }
      return db.inTransaction(conn -> conn.preparedQuery(SqliteSql.PUT_META)
              .executeBatch(List.of(Tuple.of(META_MODEL, modelName), Tuple.of(META_DIMENSION, Integer.toString(dim)))))
          .map(v -> {
            model = modelName;
            dimension = dim;
            return null;
          });
    });
  }

  // ---------------------------------------------------------------- writes

  Future<Optional<String>> contentHash(String documentId) {
    return pool.preparedQuery(SqliteSql.CONTENT_HASH).execute(Tuple.of(documentId))
        .map(rows -> rows.size() == 0 ? Optional.<String>empty() : Optional.of(rows.iterator().next().getString("content_hash")));
  }

  Future<UpsertResult> upsert(Document document, List<Chunk> chunks) {
    if (document == null || document.id() == null || document.id().isBlank()) {
      return Future.failedFuture(new IllegalArgumentException("a document needs an id"));
    }
    if (chunks == null) {
      return Future.failedFuture(new IllegalArgumentException("document " + document.id() + ": chunks must not be null"));
    }
    String namespace = document.namespace() == null || document.namespace().isBlank()
        ? Document.DEFAULT_NAMESPACE : document.namespace();
    JsonObject metadata = document.metadata() == null ? new JsonObject() : document.metadata();
    String hash = document.contentHash() != null ? document.contentHash()
        : DocumentDigest.of(namespace, document.title(), document.source(), document.text(), metadata);
    return writes.submit(() -> db.inTransaction(conn -> conn
            .preparedQuery(SqliteSql.EXISTING).execute(Tuple.of(document.id()))
            .compose(existing -> {
              Row old = existing.size() == 0 ? null : existing.iterator().next();
              if (old != null && hash.equals(old.getString("content_hash"))) {
                return Future.succeededFuture(new Written(new UpsertResult(document.id(), UpsertResult.Outcome.UNCHANGED,
                    chunks.size()), null, null));
              }
              long now = System.currentTimeMillis();
              Future<?> header;
              if (old != null) {
                header = conn.preparedQuery(SqliteSql.DELETE_CHUNKS).execute(Tuple.of(document.id()))
                    .compose(v -> conn.preparedQuery(SqliteSql.UPDATE_DOCUMENT)
                        .execute(Tuple.tuple().addString(namespace).addString(document.title()).addString(document.source())
                            .addString(document.text()).addString(metadata.encode()).addString(hash)
                            .addInteger(chunks.size()).addLong(now).addString(document.id())));
              } else {
                long created = document.createdAt() == null ? now : document.createdAt().toEpochMilli();
                header = conn.preparedQuery(SqliteSql.INSERT_DOCUMENT)
                    .execute(Tuple.tuple().addString(document.id()).addString(namespace).addString(document.title())
                        .addString(document.source()).addString(document.text()).addString(metadata.encode())
                        .addString(hash).addInteger(chunks.size()).addLong(created).addLong(now));
              }
              UpsertResult.Outcome outcome = old == null ? UpsertResult.Outcome.CREATED : UpsertResult.Outcome.REPLACED;
              return header.compose(v -> writeChunks(conn, document.id(), document.title(), chunks))
                  .map(w -> w.as(new UpsertResult(document.id(), outcome, chunks.size())));
            }))
        .compose(written -> {
          if (written.rows() == null) {
            return Future.succeededFuture(written.result());
          }
          VectorIndex.DocInfo info = new VectorIndex.DocInfo(document.id(), namespace, metadata.copy());
          // The transaction committed: bring the in-memory indexes in line (still inside the serialized section).
          return vertx.executeBlocking(() -> {
            index.put(info, written.rows());
            text.put(info, written.texts());
            return written.result();
          }, false);
        }))
        .recover(err -> Future.failedFuture(new IllegalStateException(
            "document " + document.id() + " was not stored: " + Errors.rootMessage(err), err)));
  }

  /** What a committed upsert wrote: the result, the vectors and texts to index ({@code null} when nothing changed). */
  private record Written(UpsertResult result, List<VectorIndex.Row> rows, List<TextIndex.Entry> texts) {

    Written as(UpsertResult outcome) {
      return new Written(outcome, rows, texts);
    }
  }

  private Future<Written> writeChunks(SqlConnection conn, String documentId, String title, List<Chunk> chunks) {
    if (chunks.isEmpty()) {
      return Future.succeededFuture(new Written(null, List.of(), List.of()));
    }
    int expected = dimension > 0 ? dimension : index.dimension();
    List<Tuple> tuples = new ArrayList<>(chunks.size());
    Map<Integer, float[]> vectors = new HashMap<>();
    Map<Integer, Chunk> byIndex = new HashMap<>();
    for (Chunk c : chunks) {
      if (c == null) {
        return Future.failedFuture(new IllegalArgumentException("a chunk is null"));
      }
      float[] e = c.embedding();
      Object blob = null;
      if (e != null) {
        if (expected == 0) {
          expected = e.length;
        }
        if (e.length != expected || !Vectors.finite(e)) {
          return Future.failedFuture(new IllegalArgumentException("chunk " + c.index() + " has an embedding of dimension "
              + e.length + (Vectors.finite(e) ? "" : " with non-finite values") + "; the store holds dimension " + expected));
        }
        float[] unit = Vectors.normalized(e);
        vectors.put(c.index(), unit);
        blob = Vectors.encode(unit);
      }
      byIndex.put(c.index(), c);
      tuples.add(Tuple.tuple().addString(documentId).addInteger(c.index()).addInteger(c.total()).addString(c.text())
          .addValue(blob));
    }
    return conn.preparedQuery(SqliteSql.INSERT_CHUNK).executeBatch(tuples)
        .compose(v -> conn.preparedQuery(SqliteSql.CHUNK_IDS).execute(Tuple.of(documentId)))
        .map(rows -> {
          List<VectorIndex.Row> out = new ArrayList<>();
          List<TextIndex.Entry> entries = new ArrayList<>();
          for (Row r : rows) {
            float[] v = vectors.get(r.getInteger("idx"));
            if (v != null) {
              out.add(new VectorIndex.Row(r.getLong("id"), v));
            }
            Chunk c = byIndex.get(r.getInteger("idx"));
            entries.add(new TextIndex.Entry(r.getLong("id"), c.index(), c.total(), title, c.text()));
          }
          return new Written(null, out, entries);
        });
  }

  Future<Boolean> delete(String id) {
    return writes.submit(() -> db.inTransaction(conn -> conn
            .preparedQuery(SqliteSql.DELETE_CHUNKS).execute(Tuple.of(id))
            .compose(v -> conn.preparedQuery(SqliteSql.DELETE_DOCUMENT).execute(Tuple.of(id)))
            .map(rows -> rows.rowCount() > 0))
        .compose(deleted -> deleted
            ? vertx.executeBlocking(() -> {
              index.remove(id);
              text.remove(id);
              return true;
            }, false)
            : Future.succeededFuture(false)));
  }

  /** Lets the writes already queued finish, then drops the in-memory vectors and text index. */
  Future<Void> close() {
    return writes.submit(() -> Future.succeededFuture(null))
        .compose(v -> vertx.executeBlocking(() -> {
          index.clear();
          text.close();
          return null;
        }, false)).mapEmpty();
  }

  // ---------------------------------------------------------------- reads

  Future<Optional<Document>> document(String id) {
    return pool.preparedQuery(SqliteSql.DOCUMENT).execute(Tuple.of(id))
        .map(rows -> rows.size() == 0 ? Optional.<Document>empty() : Optional.of(toDocument(rows.iterator().next(), true)));
  }

  Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return pool.preparedQuery(SqliteSql.CHUNK_RANGE).execute(Tuple.of(documentId, fromIndex, toIndex))
        .map(rows -> {
          List<Chunk> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            out.add(new Chunk(r.getString("document_id"), r.getInteger("idx"), r.getInteger("total"), r.getString("text"), null));
          }
          return out;
        });
  }

  Future<DocumentPage> list(String namespace, int offset, int limit) {
    int off = Math.max(0, offset);
    int lim = Math.max(0, Math.min(limit, MAX_PAGE));
    boolean inNamespace = namespace != null;
    Tuple countArgs = inNamespace ? Tuple.of(namespace) : Tuple.tuple();
    Tuple pageArgs = inNamespace ? Tuple.of(namespace, lim, off) : Tuple.of(lim, off);
    return pool.preparedQuery(SqliteSql.countDocuments(inNamespace)).execute(countArgs)
        .compose(count -> pool.preparedQuery(SqliteSql.documentPage(inNamespace)).execute(pageArgs)
            .map(rows -> {
              List<Document> docs = new ArrayList<>(rows.size());
              for (Row r : rows) {
                docs.add(toDocument(r, false));
              }
              return new DocumentPage(docs, count.iterator().next().getLong("n"));
            }));
  }

  Future<Set<String>> namespaces() {
    return pool.query(SqliteSql.NAMESPACES).execute().map(rows -> {
      Set<String> out = new TreeSet<>();
      for (Row r : rows) {
        out.add(r.getString("namespace"));
      }
      return out;
    });
  }

  /** The key goes into the JSON path quoted, as a bound parameter (keys are validated: no quotes in them). */
  Future<Boolean> hasMetadataKey(String key) {
    return pool.preparedQuery(SqliteSql.HAS_METADATA_KEY).execute(Tuple.of("$.\"" + key + "\""))
        .map(rows -> rows.iterator().next().getInteger("present") == 1);
  }

  /** Stored chunks against the declared counts and against the in-process vector and text indexes. */
  Future<List<dev.argus.knowledge.ConsistencyCheck>> consistency() {
    return pool.query("SELECT (SELECT count(*) FROM chunks) AS chunks, "
        + "(SELECT coalesce(sum(chunk_count), 0) FROM documents) AS declared").execute().map(rows -> {
          Row r = rows.iterator().next();
          long chunks = r.getLong("chunks");
          long declared = r.getLong("declared");
          int vectors = index.size();
          int texts = text.size();
          return List.of(
              new dev.argus.knowledge.ConsistencyCheck("chunk_counts", chunks == declared,
                  chunks + " chunks stored, documents declare " + declared),
              new dev.argus.knowledge.ConsistencyCheck("vector_index", vectors == chunks,
                  vectors + " vectors in the in-process index, " + chunks + " chunks stored"),
              new dev.argus.knowledge.ConsistencyCheck("text_index", texts == chunks,
                  texts + " chunks in the in-process text index, " + chunks + " chunks stored"),
              new dev.argus.knowledge.ConsistencyCheck("embedding_model", model != null || chunks == 0,
                  model == null ? "no embedding model recorded" : "recorded " + model + " (" + dimension + ")"));
        });
  }

  Future<StoreStats> stats(String type) {
    return pool.query(SqliteSql.STATS).execute().map(rows -> {
      Row r = rows.iterator().next();
      int dim = dimension > 0 ? dimension : index.dimension();
      return new StoreStats(type, r.getLong("documents"), r.getLong("chunks"), model, dim);
    });
  }

  private static Document toDocument(Row r, boolean withText) {
    return new Document(r.getString("id"), r.getString("namespace"), r.getString("title"), r.getString("source"),
        withText ? r.getString("text") : null, new JsonObject(r.getString("metadata")), r.getString("content_hash"),
        r.getInteger("chunk_count"), Instant.ofEpochMilli(r.getLong("created_at")),
        Instant.ofEpochMilli(r.getLong("updated_at")));
  }
}
