package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.DocumentPage;
import dev.argus.knowledge.EmbeddingModelMismatchException;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.StoreStats;
import dev.argus.knowledge.UpsertResult;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * The embedded knowledge store on one SQLite file (see {@code db/migration/sqlite/V1__knowledge.sql}):
 * documents and chunks in tables, keyword search with FTS5 BM25, trigram search with FTS5's trigram
 * tokenizer, and vectors stored as BLOBs and searched exactly in process by {@link VectorIndex}, loaded at open
 * and updated after each committed change. Writes of this process are serialized ({@link SerialWrites}); reads
 * run concurrently through the pool.
 */
public final class SqliteKnowledgeStore implements KnowledgeStore {

  private static final Logger LOG = Logger.getLogger(SqliteKnowledgeStore.class.getName());
  private static final int LOAD_PAGE = 2048;
  private static final int MAX_K = 10_000;
  /** Minimum fraction of the query's trigrams a trigram hit must contain. */
  static final double MIN_TRIGRAM_SHARE = 0.3;
  /** How many trigrams of a long query take part in the trigram leg (the rarest ones). */
  static final int TRIGRAMS_KEPT = 24;
  private static final String META_MODEL = "embedding_model";
  private static final String META_DIMENSION = "embedding_dimension";

  /** Columns of a search hit; the score column is appended per leg. */
  private static final String HIT_COLUMNS = "c.id AS chunk_id, c.document_id AS document_id, c.idx AS idx, "
      + "c.total AS total, c.text AS text, d.namespace AS namespace, d.title AS title, d.metadata AS metadata";

  private final Vertx vertx;
  private final Database db;
  private final Pool pool;
  private final VectorIndex index;
  private final SerialWrites writes = new SerialWrites();
  private volatile String model;
  private volatile int dimension;
  private volatile boolean closed;

  private SqliteKnowledgeStore(Database db, DotProduct kernel) {
    this.vertx = db.vertx();
    this.db = db;
    this.pool = db.pool();
    this.index = new VectorIndex(kernel);
  }

  /** Opens the store over a migrated SQLite database and loads its vectors into memory. */
  public static Future<KnowledgeStore> open(Database db) {
    if (db.dialect() != Database.Dialect.SQLITE) {
      return Future.failedFuture(new IllegalArgumentException("SqliteKnowledgeStore needs a SQLite database, got " + db));
    }
    SqliteKnowledgeStore store = new SqliteKnowledgeStore(db, DotProduct.best());
    long start = System.nanoTime();
    return store.loadMeta().compose(v -> store.loadIndex()).map(v -> {
      LOG.info("knowledge store " + db + ": " + store.index.size() + " vectors loaded in "
          + (System.nanoTime() - start) / 1_000_000 + " ms (scan kernel " + store.index.kernel() + ")");
      return store;
    });
  }

  @Override
  public String type() {
    return "sqlite";
  }

  // ---------------------------------------------------------------- open

  private Future<Void> loadMeta() {
    return pool.query("SELECT key, value FROM store_meta").execute().map(rows -> {
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
    return pool.query("SELECT id, namespace, metadata FROM documents").execute().compose(rows -> {
      Map<String, VectorIndex.DocInfo> docs = new HashMap<>();
      for (Row r : rows) {
        String id = r.getString("id");
        docs.put(id, new VectorIndex.DocInfo(id, r.getString("namespace"), new JsonObject(r.getString("metadata"))));
      }
      return loadVectors(docs, 0L);
    });
  }

  private Future<Void> loadVectors(Map<String, VectorIndex.DocInfo> docs, long afterId) {
    return pool.preparedQuery("SELECT id, document_id, embedding FROM chunks WHERE id > ? AND embedding IS NOT NULL "
            + "ORDER BY id LIMIT ?")
        .execute(Tuple.of(afterId, LOAD_PAGE))
        .compose(rows -> vertx.executeBlocking(() -> {
          long last = -1;
          for (Row r : rows) {
            long id = r.getLong("id");
            VectorIndex.DocInfo doc = docs.get(r.getString("document_id"));
            if (doc != null) {
              index.append(doc, new VectorIndex.Row(id, Vectors.decode(r.getValue("embedding"))));
            }
            last = id;
          }
          return rows.size() < LOAD_PAGE ? -1L : last;
        }, false))
        .compose(next -> next < 0 ? Future.succeededFuture() : loadVectors(docs, next));
  }

  // ---------------------------------------------------------------- model identity

  @Override
  public Future<Void> checkEmbeddingModel(String modelName, int dim) {
    if (modelName == null || modelName.isBlank() || dim <= 0) {
      return Future.failedFuture(new IllegalArgumentException("embedding model name and a positive dimension are required"));
    }
    return guarded(() -> writes.submit(() -> {
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
      return db.inTransaction(conn -> conn
              .preparedQuery("INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
              .executeBatch(List.of(Tuple.of(META_MODEL, modelName), Tuple.of(META_DIMENSION, Integer.toString(dim)))))
          .map(v -> {
            model = modelName;
            dimension = dim;
            return null;
          });
    }));
  }

  // ---------------------------------------------------------------- writes

  @Override
  public Future<Optional<String>> contentHash(String documentId) {
    return guarded(() -> pool.preparedQuery("SELECT content_hash FROM documents WHERE id = ?").execute(Tuple.of(documentId))
        .map(rows -> rows.size() == 0 ? Optional.<String>empty() : Optional.of(rows.iterator().next().getString("content_hash"))));
  }

  @Override
  public Future<UpsertResult> upsert(Document document, List<Chunk> chunks) {
    if (document == null || document.id() == null || document.id().isBlank()) {
      return Future.failedFuture(new IllegalArgumentException("a document needs an id"));
    }
    if (chunks == null) {
      return Future.failedFuture(new IllegalArgumentException("document " + document.id() + ": chunks must not be null"));
    }
    String namespace = document.namespace() == null || document.namespace().isBlank()
        ? Document.DEFAULT_NAMESPACE : document.namespace();
    JsonObject metadata = document.metadata() == null ? new JsonObject() : document.metadata();
    String hash = document.contentHash() != null ? document.contentHash() : computeHash(document, namespace, metadata);
    return guarded(() -> writes.submit(() -> db.inTransaction(conn -> conn
            .preparedQuery("SELECT content_hash, created_at FROM documents WHERE id = ?").execute(Tuple.of(document.id()))
            .compose(existing -> {
              Row old = existing.size() == 0 ? null : existing.iterator().next();
              if (old != null && hash.equals(old.getString("content_hash"))) {
                return Future.succeededFuture(new Written(new UpsertResult(document.id(), UpsertResult.Outcome.UNCHANGED,
                    chunks.size()), null));
              }
              long now = System.currentTimeMillis();
              Future<?> header;
              if (old != null) {
                header = conn.preparedQuery("DELETE FROM chunks WHERE document_id = ?").execute(Tuple.of(document.id()))
                    .compose(v -> conn.preparedQuery("UPDATE documents SET namespace = ?, title = ?, source = ?, text = ?, "
                            + "metadata = ?, content_hash = ?, chunk_count = ?, updated_at = ? WHERE id = ?")
                        .execute(Tuple.tuple().addString(namespace).addString(document.title()).addString(document.source())
                            .addString(document.text()).addString(metadata.encode()).addString(hash)
                            .addInteger(chunks.size()).addLong(now).addString(document.id())));
              } else {
                long created = document.createdAt() == null ? now : document.createdAt().toEpochMilli();
                header = conn.preparedQuery("INSERT INTO documents (id, namespace, title, source, text, metadata, content_hash, "
                        + "chunk_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                    .execute(Tuple.tuple().addString(document.id()).addString(namespace).addString(document.title())
                        .addString(document.source()).addString(document.text()).addString(metadata.encode())
                        .addString(hash).addInteger(chunks.size()).addLong(created).addLong(now));
              }
              UpsertResult.Outcome outcome = old == null ? UpsertResult.Outcome.CREATED : UpsertResult.Outcome.REPLACED;
              return header.compose(v -> writeChunks(conn, document.id(), chunks))
                  .map(rows -> new Written(new UpsertResult(document.id(), outcome, chunks.size()), rows));
            }))
        .compose(written -> {
          if (written.rows() == null) {
            return Future.succeededFuture(written.result());
          }
          VectorIndex.DocInfo info = new VectorIndex.DocInfo(document.id(), namespace, metadata.copy());
          // The transaction committed: bring the in-memory vectors in line (still inside the serialized section).
          return vertx.executeBlocking(() -> {
            index.put(info, written.rows());
            return written.result();
          }, false);
        })))
        .recover(err -> Future.failedFuture(new IllegalStateException(
            "document " + document.id() + " was not stored: " + rootMessage(err), err)));
  }

  /** What a committed upsert wrote: the result and the vectors to index ({@code null} when nothing changed). */
  private record Written(UpsertResult result, List<VectorIndex.Row> rows) {
  }

  private Future<List<VectorIndex.Row>> writeChunks(SqlConnection conn, String documentId, List<Chunk> chunks) {
    if (chunks.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    int expected = dimension > 0 ? dimension : index.dimension();
    List<Tuple> tuples = new ArrayList<>(chunks.size());
    Map<Integer, float[]> vectors = new HashMap<>();
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
      tuples.add(Tuple.tuple().addString(documentId).addInteger(c.index()).addInteger(c.total()).addString(c.text())
          .addValue(blob));
    }
    return conn.preparedQuery("INSERT INTO chunks (document_id, idx, total, text, embedding) VALUES (?, ?, ?, ?, ?)")
        .executeBatch(tuples)
        .compose(v -> conn.preparedQuery("SELECT id, idx FROM chunks WHERE document_id = ? ORDER BY idx")
            .execute(Tuple.of(documentId)))
        .map(rows -> {
          List<VectorIndex.Row> out = new ArrayList<>();
          for (Row r : rows) {
            float[] v = vectors.get(r.getInteger("idx"));
            if (v != null) {
              out.add(new VectorIndex.Row(r.getLong("id"), v));
            }
          }
          return out;
        });
  }

  @Override
  public Future<Boolean> delete(String id) {
    return guarded(() -> writes.submit(() -> db.inTransaction(conn -> conn
            .preparedQuery("DELETE FROM chunks WHERE document_id = ?").execute(Tuple.of(id))
            .compose(v -> conn.preparedQuery("DELETE FROM documents WHERE id = ?").execute(Tuple.of(id)))
            .map(rows -> rows.rowCount() > 0))
        .compose(deleted -> deleted
            ? vertx.executeBlocking(() -> {
              index.remove(id);
              return true;
            }, false)
            : Future.succeededFuture(false))));
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Future<Optional<Document>> document(String id) {
    return guarded(() -> pool.preparedQuery("SELECT * FROM documents WHERE id = ?").execute(Tuple.of(id))
        .map(rows -> rows.size() == 0 ? Optional.<Document>empty() : Optional.of(toDocument(rows.iterator().next(), true))));
  }

  @Override
  public Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return guarded(() -> pool.preparedQuery("SELECT document_id, idx, total, text FROM chunks WHERE document_id = ? "
            + "AND idx BETWEEN ? AND ? ORDER BY idx")
        .execute(Tuple.of(documentId, fromIndex, toIndex))
        .map(rows -> {
          List<Chunk> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            out.add(new Chunk(r.getString("document_id"), r.getInteger("idx"), r.getInteger("total"), r.getString("text"), null));
          }
          return out;
        }));
  }

  @Override
  public Future<DocumentPage> list(String namespace, int offset, int limit) {
    int off = Math.max(0, offset);
    int lim = Math.max(0, Math.min(limit, MAX_K));
    String where = namespace == null ? "" : " WHERE namespace = ?";
    Tuple countArgs = namespace == null ? Tuple.tuple() : Tuple.of(namespace);
    Tuple pageArgs = namespace == null ? Tuple.of(lim, off) : Tuple.of(namespace, lim, off);
    return guarded(() -> pool.preparedQuery("SELECT count(*) AS n FROM documents" + where).execute(countArgs)
        .compose(count -> pool.preparedQuery("SELECT id, namespace, title, source, metadata, content_hash, chunk_count, "
                + "created_at, updated_at FROM documents" + where + " ORDER BY updated_at DESC, rowid DESC LIMIT ? OFFSET ?")
            .execute(pageArgs)
            .map(rows -> {
              List<Document> docs = new ArrayList<>(rows.size());
              for (Row r : rows) {
                docs.add(toDocument(r, false));
              }
              return new DocumentPage(docs, count.iterator().next().getLong("n"));
            })));
  }

  @Override
  public Future<Set<String>> namespaces() {
    return guarded(() -> pool.query("SELECT DISTINCT namespace FROM documents").execute().map(rows -> {
      Set<String> out = new TreeSet<>();
      for (Row r : rows) {
        out.add(r.getString("namespace"));
      }
      return out;
    }));
  }

  @Override
  public Future<StoreStats> stats() {
    return guarded(() -> pool.query("SELECT (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM chunks) AS chunks")
        .execute()
        .map(rows -> {
          Row r = rows.iterator().next();
          int dim = dimension > 0 ? dimension : index.dimension();
          return new StoreStats(type(), r.getLong("documents"), r.getLong("chunks"), model, dim);
        }));
  }

  // ---------------------------------------------------------------- retrieval legs

  @Override
  public Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    String match = FtsQueries.keywordMatch(query);
    return ftsSearch("chunks_fts", match, k, filter);
  }

  /**
   * Trigram leg: the query's distinct trigrams OR-ed, ranked by BM25 (chunks sharing more, and rarer, trigrams
   * first). Long queries keep only their {@link #TRIGRAMS_KEPT} rarest trigrams (document frequencies from
   * the FTS5 vocabulary), which keeps the leg fast on natural-language questions; short queries (identifiers,
   * emails, typos) keep all. A chunk must also contain at least {@link #MIN_TRIGRAM_SHARE} of the kept trigrams
   * (title or text), so one common trigram such as "ion" does not make a match; the share is checked on a
   * candidate list a few times longer than k, after the metadata filters.
   */
  @Override
  public Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    List<String> grams = FtsQueries.trigrams(query);
    if (grams.isEmpty() || k <= 0) {
      return guarded(() -> Future.succeededFuture(List.of()));
    }
    int candidates = Math.min(MAX_K, k * 3 + 20);
    return guarded(() -> rarest(grams).compose(kept -> ftsSearch("chunks_trigram", FtsQueries.orJoin(kept), candidates, filter)
        .map(hits -> {
          List<ScoredChunk> out = new ArrayList<>(Math.min(k, hits.size()));
          for (ScoredChunk hit : hits) {
            if (out.size() >= k) {
              break;
            }
            if (FtsQueries.trigramShare(kept, hit.title(), hit.text()) >= MIN_TRIGRAM_SHARE) {
              out.add(hit);
            }
          }
          return out;
        })));
  }

  /** The {@link #TRIGRAMS_KEPT} trigrams with the lowest document frequency (all of them for short queries). */
  private Future<List<String>> rarest(List<String> grams) {
    if (grams.size() <= TRIGRAMS_KEPT) {
      return Future.succeededFuture(grams);
    }
    StringBuilder sql = new StringBuilder("SELECT term, doc FROM chunks_trigram_vocab WHERE term IN (");
    for (int i = 0; i < grams.size(); i++) {
      sql.append(i == 0 ? "?" : ", ?");
    }
    sql.append(')');
    return pool.preparedQuery(sql.toString()).execute(Tuple.wrap(new ArrayList<Object>(grams))).map(rows -> {
      Map<String, Long> df = new HashMap<>();
      for (Row r : rows) {
        df.put(r.getString("term"), r.getLong("doc"));
      }
      // Trigrams no chunk holds cannot match; among the others the rarest discriminate best.
      List<String> present = new ArrayList<>(grams.stream().filter(df::containsKey).toList());
      present.sort(java.util.Comparator.comparingLong(df::get));
      return present.isEmpty() ? grams.subList(0, TRIGRAMS_KEPT)
          : present.subList(0, Math.min(TRIGRAMS_KEPT, present.size()));
    });
  }

  /**
   * One FTS5 leg: MATCH with the built expression, best {@code k} by BM25 (title weighted x2).
   * Without filters FTS5 ranks and cuts inside the index and only the top k are joined; with filters the
   * namespace and metadata conditions are part of the same statement, before the LIMIT.
   */
  private Future<List<ScoredChunk>> ftsSearch(String table, String match, int k, SearchFilter filter) {
    if (match == null || k <= 0) {
      return guarded(() -> Future.succeededFuture(List.of()));
    }
    List<Object> params = new ArrayList<>();
    params.add(match);
    StringBuilder sql = new StringBuilder("SELECT ").append(HIT_COLUMNS).append(", f.rank_value AS rank_value FROM ");
    if (filter == null || filter.isEmpty()) {
      sql.append("(SELECT rowid AS chunk_rowid, bm25(").append(table).append(", 2.0, 1.0) AS rank_value FROM ")
          .append(table).append(" WHERE ").append(table).append(" MATCH ? ORDER BY rank_value LIMIT ?) f JOIN chunks c ON c.id = f.chunk_rowid")
          .append(" JOIN documents d ON d.id = c.document_id ORDER BY f.rank_value");
      params.add(Math.min(k, MAX_K));
    } else {
      sql.append("(SELECT rowid AS chunk_rowid, bm25(").append(table).append(", 2.0, 1.0) AS rank_value FROM ")
          .append(table).append(" WHERE ").append(table).append(" MATCH ?) f JOIN chunks c ON c.id = f.chunk_rowid JOIN documents d ON d.id = c.document_id WHERE 1 = 1");
      MetadataFilters.appendSql(filter, sql, params);
      sql.append(" ORDER BY f.rank_value LIMIT ?");
      params.add(Math.min(k, MAX_K));
    }
    return guarded(() -> pool.preparedQuery(sql.toString()).execute(Tuple.wrap(params)).map(rows -> {
      List<ScoredChunk> out = new ArrayList<>(rows.size());
      for (Row r : rows) {
        out.add(toHit(r, -r.getDouble("rank_value")));
      }
      return out;
    }));
  }

  @Override
  public Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    if (query == null || query.length == 0) {
      return Future.failedFuture(new IllegalArgumentException("query vector is empty"));
    }
    if (k <= 0) {
      return guarded(() -> Future.succeededFuture(List.of()));
    }
    float[] unit = Vectors.normalized(query);
    int limit = Math.min(k, MAX_K);
    return guarded(() -> vertx.executeBlocking(() -> index.search(unit, limit, filter), false).compose(hits -> {
      if (hits.isEmpty()) {
        return Future.succeededFuture(List.<ScoredChunk>of());
      }
      StringBuilder sql = new StringBuilder("SELECT ").append(HIT_COLUMNS)
          .append(" FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id IN (");
      List<Object> ids = new ArrayList<>(hits.size());
      for (int i = 0; i < hits.size(); i++) {
        sql.append(i == 0 ? "?" : ", ?");
        ids.add(hits.get(i).chunkId());
      }
      sql.append(')');
      return pool.preparedQuery(sql.toString()).execute(Tuple.wrap(ids)).map(rows -> {
        Map<Long, Row> byId = new HashMap<>();
        for (Row r : rows) {
          byId.put(r.getLong("chunk_id"), r);
        }
        List<ScoredChunk> out = new ArrayList<>(hits.size());
        for (VectorIndex.Hit hit : hits) {
          Row r = byId.get(hit.chunkId());
          if (r != null) { // deleted between scan and fetch
            out.add(toHit(r, hit.score()));
          }
        }
        return out;
      });
    }));
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public Future<Void> close() {
    if (closed) {
      return Future.succeededFuture();
    }
    closed = true;
    // Let writes already queued finish, then drop the in-memory vectors. The pool belongs to Database.
    return writes.submit(() -> Future.succeededFuture(null))
        .compose(v -> vertx.executeBlocking(() -> {
          index.clear();
          return null;
        }, false)).mapEmpty();
  }

  private <T> Future<T> guarded(java.util.function.Supplier<Future<T>> action) {
    if (closed) {
      return Future.failedFuture(new IllegalStateException("the knowledge store is closed"));
    }
    return action.get();
  }

  // ---------------------------------------------------------------- mapping

  private static ScoredChunk toHit(Row r, double score) {
    return new ScoredChunk(r.getString("document_id"), r.getString("namespace"), r.getString("title"),
        r.getInteger("idx"), r.getInteger("total"), r.getString("text"), score, new JsonObject(r.getString("metadata")));
  }

  private static Document toDocument(Row r, boolean withText) {
    return new Document(r.getString("id"), r.getString("namespace"), r.getString("title"), r.getString("source"),
        withText ? r.getString("text") : null, new JsonObject(r.getString("metadata")), r.getString("content_hash"),
        r.getInteger("chunk_count"), Instant.ofEpochMilli(r.getLong("created_at")),
        Instant.ofEpochMilli(r.getLong("updated_at")));
  }

  /** SHA-256 over everything a document is made of, for callers that do not supply a hash. */
  static String computeHash(Document d, String namespace, JsonObject metadata) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (String part : new String[] {namespace, d.title(), d.source(), d.text(), metadata.encode()}) {
        md.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String rootMessage(Throwable err) {
    Throwable t = err;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
