package dev.argus.knowledge.pg;

import com.pgvector.PGvector;
import dev.argus.config.PgConf;
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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The production {@link KnowledgeStore} on PostgreSQL (vertx-pg-client): vectors in a pgvector column with an
 * HNSW cosine index; keyword search on a generated weighted {@code tsvector} (GIN) with OR semantics over the
 * analysed query terms; trigram search on a generated vector of pg_trgm trigrams (GIN). Both text legs rank by
 * BM25 from the planner's term statistics ({@link PgTermRanking}). Every statement is parameterized.
 *
 * <p>Vector search sets {@code hnsw.ef_search} ({@code pg.efSearch}) and {@code hnsw.iterative_scan =
 * relaxed_order} for its transaction only, and keeps the planner off a sequential scan (on 5,183 chunks it chose
 * one at ef_search 200 and read every vector: 10.7 ms instead of 1.4). It re-sorts the materialized hits by
 * distance and, when a selective filter leaves the index scan with fewer than k hits, repeats the query as an
 * exact scan so that a filtered query still returns its true top-k.
 */
public final class PgKnowledgeStore implements KnowledgeStore {

  static final String VECTOR_INDEX = "chunks_embedding_hnsw";
  /** Minimum fraction of the query's kept trigrams a trigram hit must hold (as in the embedded store). */
  static final double MIN_TRIGRAM_SHARE = 0.3;
  /** How many trigrams of a long query take part in the trigram leg (the rarest ones). */
  static final int TRIGRAMS_KEPT = 24;
  /** The keyword leg scores at most this many terms of a query, its rarest (as the embedded store's FTS5 leg). */
  static final int MAX_KEYWORD_TERMS = 64;
  /** Query text beyond this is not analysed (search requests are already size-limited before they get here). */
  static final int MAX_QUERY_CHARS = 4000;

  /** The columns a search hit is mapped from (see {@code toScored}), on alias {@code c}. */
  static final String SCORED_COLUMNS =
      "c.document_id, c.namespace, c.title, c.idx, c.total, c.text, c.metadata";

  private final Pool pool;
  private final PgConf conf;

  public PgKnowledgeStore(Database db, PgConf conf) {
    this(db.pool(), conf);
  }

  public PgKnowledgeStore(Pool pool, PgConf conf) {
    this.pool = pool;
    this.conf = conf;
  }

  @Override
  public String type() {
    return "postgres";
  }

  // ---------------------------------------------------------------- embedding model and vector index

  @Override
  public Future<Void> checkEmbeddingModel(String model, int dimension) {
    if (dimension <= 0) {
      return Future.failedFuture(new IllegalArgumentException("embedding dimension must be positive: " + dimension));
    }
    return pool.withTransaction(conn -> lock(conn, "argus.embedding_model")
        .compose(v -> conn.query("SELECT model, dimension FROM embedding_model WHERE id = 1").execute())
        .compose(rows -> {
          if (rows.size() == 0) {
            return conn.preparedQuery("INSERT INTO embedding_model (id, model, dimension) VALUES (1, $1, $2)")
                .execute(Tuple.of(model, dimension)).<Void>mapEmpty();
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
   * dimension is only known at start) and creates the HNSW cosine index, both idempotently. Numbers in the
   * DDL come from validated configuration, never from user input.
   */
  private Future<Void> ensureVectorIndex(SqlConnection conn, int dimension) {
    return conn.query("SELECT atttypmod FROM pg_attribute WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'")
        .execute()
        .compose(rows -> {
          int typmod = rows.iterator().next().getInteger(0);
          if (typmod == dimension) {
            return Future.<Void>succeededFuture();
          }
          return conn.query("DROP INDEX IF EXISTS " + VECTOR_INDEX).execute()
              .compose(v -> conn.query("ALTER TABLE chunks ALTER COLUMN embedding TYPE vector(" + dimension + ")").execute())
              .<Void>mapEmpty();
        })
        .compose(v -> conn.query("CREATE INDEX IF NOT EXISTS " + VECTOR_INDEX + " ON chunks USING hnsw (embedding vector_cosine_ops)"
            + " WITH (m = " + conf.hnswM() + ", ef_construction = " + conf.hnswEfConstruction() + ")").execute())
        .mapEmpty();
  }

  private static Future<Void> lock(SqlConnection conn, String key) {
    return conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))").execute(Tuple.of(key)).mapEmpty();
  }

  // ---------------------------------------------------------------- documents

  @Override
  public Future<Optional<String>> contentHash(String documentId) {
    return pool.preparedQuery("SELECT content_hash FROM documents WHERE id = $1").execute(Tuple.of(documentId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  @Override
  public Future<UpsertResult> upsert(Document document, List<Chunk> chunks) {
    return write(document, chunks, false);
  }

  /**
   * Like {@link #upsert} but keeps the document's own {@code createdAt}/{@code updatedAt} (when set) and content
   * hash: used by {@code argus migrate-store} to copy a store without changing its history.
   */
  public Future<UpsertResult> copy(Document document, List<Chunk> chunks) {
    return write(document, chunks, true);
  }

  private Future<UpsertResult> write(Document document, List<Chunk> chunks, boolean keepTimestamps) {
    String id = document.id();
    if (id == null || id.isBlank()) {
      return Future.failedFuture(new IllegalArgumentException("a document needs an id"));
    }
    String namespace = document.namespace() == null ? Document.DEFAULT_NAMESPACE : document.namespace();
    String title = clean(document.title() == null ? "" : document.title());
    String text = clean(document.text() == null ? "" : document.text());
    JsonObject metadata = document.metadata() == null ? new JsonObject() : document.metadata();
    String hash = document.contentHash() != null ? document.contentHash()
        : digest(namespace, title, document.source(), text, metadata);
    OffsetDateTime created = keepTimestamps && document.createdAt() != null ? document.createdAt().atOffset(ZoneOffset.UTC) : null;
    OffsetDateTime updated = keepTimestamps && document.updatedAt() != null ? document.updatedAt().atOffset(ZoneOffset.UTC) : null;
    int total = chunks.size();
    Integer[] indexes = new Integer[total];
    String[] texts = new String[total];
    String[] vectors = new String[total];
    for (int i = 0; i < total; i++) {
      Chunk c = chunks.get(i);
      indexes[i] = c.index();
      texts[i] = clean(c.text());
      vectors[i] = c.embedding() == null ? null : new PGvector(c.embedding()).toString();
    }
    Future<UpsertResult> written = pool.withTransaction(conn -> lock(conn, "argus.doc:" + id)
        .compose(v -> conn.preparedQuery("SELECT content_hash FROM documents WHERE id = $1").execute(Tuple.of(id)))
        .compose(rows -> {
          boolean exists = rows.size() > 0;
          if (exists && hash.equals(rows.iterator().next().getString(0))) {
            return Future.succeededFuture(new UpsertResult(id, UpsertResult.Outcome.UNCHANGED, total));
          }
          Future<?> doc = exists
              ? conn.preparedQuery("DELETE FROM chunks WHERE document_id = $1").execute(Tuple.of(id))
                  .compose(v -> conn.preparedQuery("UPDATE documents SET namespace = $2, title = $3, source = $4, text = $5,"
                      + " metadata = $6::jsonb, content_hash = $7, chunk_count = $8,"
                      + " updated_at = coalesce($9::timestamptz, clock_timestamp()) WHERE id = $1")
                      .execute(Tuple.from(new Object[] {id, namespace, title, document.source(), text, metadata, hash, total,
                          updated})))
              : conn.preparedQuery("INSERT INTO documents (id, namespace, title, source, text, metadata, content_hash, chunk_count,"
                      + " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8,"
                      + " coalesce($9::timestamptz, clock_timestamp()), coalesce($10::timestamptz, $9::timestamptz, clock_timestamp()))")
                  .execute(Tuple.from(new Object[] {id, namespace, title, document.source(), text, metadata, hash, total,
                      created, updated}));
          return doc
              .compose(v -> total == 0 ? Future.succeededFuture() : conn.preparedQuery(
                  "INSERT INTO chunks (document_id, idx, total, text, namespace, title, metadata, embedding)"
                      + " SELECT $1, t.idx, $2, t.txt, $3, $4, $5::jsonb, t.emb::vector"
                      + " FROM unnest($6::int[], $7::text[], $8::text[]) AS t(idx, txt, emb)")
                  .execute(Tuple.from(new Object[] {id, total, namespace, title, metadata, indexes, texts, vectors})))
              .map(v -> new UpsertResult(id, exists ? UpsertResult.Outcome.REPLACED : UpsertResult.Outcome.CREATED, total));
        }));
    return written.recover(err -> Future.failedFuture(
        new PgStoreException("document '" + id + "' was not stored (nothing of it was written): " + rootMessage(err), err)));
  }

  @Override
  public Future<Optional<Document>> document(String id) {
    return pool.preparedQuery("SELECT id, namespace, title, source, text, metadata, content_hash, chunk_count, created_at,"
            + " updated_at FROM documents WHERE id = $1").execute(Tuple.of(id))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(toDocument(rows.iterator().next(), true)));
  }

  @Override
  public Future<List<Chunk>> chunks(String documentId, int fromIndex, int toIndex) {
    return pool.preparedQuery("SELECT document_id, idx, total, text FROM chunks WHERE document_id = $1 AND idx BETWEEN $2 AND $3"
            + " ORDER BY idx").execute(Tuple.of(documentId, fromIndex, toIndex))
        .map(rows -> {
          List<Chunk> out = new ArrayList<>(rows.size());
          for (Row r : rows) {
            out.add(new Chunk(r.getString(0), r.getInteger(1), r.getInteger(2), r.getString(3), null));
          }
          return out;
        });
  }

  @Override
  public Future<DocumentPage> list(String namespace, int offset, int limit) {
    Tuple args = Tuple.of(namespace, Math.max(0, limit), Math.max(0, offset));
    Future<RowSet<Row>> page = pool.preparedQuery("SELECT id, namespace, title, source, NULL::text AS text, metadata,"
        + " content_hash, chunk_count, created_at, updated_at FROM documents WHERE ($1::text IS NULL OR namespace = $1)"
        + " ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3").execute(args);
    Future<RowSet<Row>> count = pool.preparedQuery("SELECT count(*) FROM documents WHERE ($1::text IS NULL OR namespace = $1)")
        .execute(Tuple.of(namespace));
    return Future.all(page, count).map(v -> {
      List<Document> docs = new ArrayList<>();
      for (Row r : page.result()) {
        docs.add(toDocument(r, false));
      }
      return new DocumentPage(docs, count.result().iterator().next().getLong(0));
    });
  }

  @Override
  public Future<Boolean> delete(String id) {
    return pool.withTransaction(conn -> lock(conn, "argus.doc:" + id)
        .compose(v -> conn.preparedQuery("DELETE FROM documents WHERE id = $1").execute(Tuple.of(id)))
        .map(rows -> rows.rowCount() > 0));
  }

  // ---------------------------------------------------------------- retrieval

  @Override
  public Future<List<ScoredChunk>> vectorSearch(float[] query, int k, SearchFilter filter) {
    if (k <= 0) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(new PGvector(query).toString());
    params.add(k);
    String where = PgFilterSql.where(filter, params);
    String sql = vectorSql(where);
    Tuple args = Tuple.from(params);
    return pool.withTransaction(conn -> conn.preparedQuery("SELECT set_config('hnsw.ef_search', $1, true),"
            + " set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('enable_seqscan', 'off', true)")
        .execute(Tuple.of(Integer.toString(Math.max(conf.efSearch(), k))))
        .compose(v -> conn.preparedQuery(sql).execute(args))
        .compose(rows -> {
          if (rows.size() >= k) {
            return Future.succeededFuture(rows);
          }
          // The approximate scan stopped early (a selective filter): the exact scan is cheap for few rows.
          return conn.query("SELECT set_config('enable_indexscan', 'off', true)").execute()
              .compose(v -> conn.preparedQuery(sql).execute(args));
        }))
        .map(PgKnowledgeStore::toScored);
  }

  /** Nearest chunks to $1 (pgvector text), at most $2, filter conditions appended; re-sorted after the relaxed scan. */
  static String vectorSql(String where) {
    return "WITH hits AS MATERIALIZED (SELECT " + SCORED_COLUMNS + ", c.embedding <=> $1::text::vector AS distance"
        + " FROM chunks c WHERE c.embedding IS NOT NULL" + where
        + " ORDER BY c.embedding <=> $1::text::vector LIMIT $2)"
        + " SELECT *, 1 - distance AS score FROM hits ORDER BY distance, document_id, idx";
  }

  /**
   * Keyword leg: BM25 over the English lexemes ({@code tsv}), in two statements: the query's terms with their
   * statistics, then the candidate chunks scored on every term ({@link PgTermRanking#keywordSql}).
   */
  @Override
  public Future<List<ScoredChunk>> keywordSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    return pool.preparedQuery(PgTermRanking.keywordTermsSql()).execute(Tuple.of(q)).compose(rows -> {
      // The rows come rarest first; terms no chunk holds match nothing and are left out.
      List<String> terms = new ArrayList<>();
      List<Double> df = new ArrayList<>();
      List<Double> idf = new ArrayList<>();
      double avgdl = 1;
      for (Row r : rows) {
        if (terms.size() == MAX_KEYWORD_TERMS) {
          break;
        }
        avgdl = Math.max(1, r.getDouble("avgdl"));
        if (r.getDouble("df") > 0) {
          terms.add(r.getString("term"));
          df.add(r.getDouble("df"));
          idf.add(r.getDouble("idf"));
        }
      }
      int n = terms.size();
      if (n == 0) {
        return Future.succeededFuture(List.of());
      }
      double[] frequencies = df.stream().mapToDouble(Double::doubleValue).toArray();
      StringBuilder candidates = new StringBuilder();
      for (int c : PgTermRanking.keywordCandidates(frequencies, Math.max(conf.keywordPostings(), 2 * k))) {
        candidates.append(candidates.length() == 0 ? "" : " | ").append(PgTermRanking.tsqueryLiteral(terms.get(c)));
      }
      List<Object> params = new ArrayList<>();
      params.add(candidates.toString());
      params.add(k);
      params.add(avgdl);
      for (int t = 0; t < n; t++) {
        params.add(PgTermRanking.tsqueryLiteral(terms.get(t)));
        params.add(idf.get(t));
      }
      String where = PgFilterSql.where(filter, params);
      return pool.preparedQuery(PgTermRanking.keywordSql(n, where)).execute(Tuple.from(params)).map(PgKnowledgeStore::toScored);
    });
  }

  /**
   * Trigram leg: BM25 over pg_trgm trigrams ({@code tgv}), like the embedded store's FTS5 trigram leg: the
   * {@link #TRIGRAMS_KEPT} rarest trigrams of the query that some chunk holds take part (all of a short query's),
   * and a chunk must hold at least {@link #MIN_TRIGRAM_SHARE} of them, so one common trigram makes no match.
   */
  @Override
  public Future<List<ScoredChunk>> trigramSearch(String query, int k, SearchFilter filter) {
    String q = queryText(query);
    if (k <= 0 || q == null) {
      return Future.succeededFuture(List.of());
    }
    List<Object> params = new ArrayList<>();
    params.add(q);
    params.add(k);
    String where = PgFilterSql.where(filter, params);
    return pool.preparedQuery(PgTermRanking.trigramSql(where, TRIGRAMS_KEPT, MIN_TRIGRAM_SHARE, conf.trigramPostings())).execute(Tuple.from(params))
        .map(PgKnowledgeStore::toScored);
  }

  /** The query as the text legs analyse it: without NUL characters, at most {@link #MAX_QUERY_CHARS}; null if blank. */
  private static String queryText(String query) {
    String q = clean(query);
    if (q == null || q.isBlank()) {
      return null;
    }
    return q.length() > MAX_QUERY_CHARS ? q.substring(0, MAX_QUERY_CHARS) : q;
  }

  // ---------------------------------------------------------------- misc

  @Override
  public Future<Set<String>> namespaces() {
    return pool.query("SELECT DISTINCT namespace FROM documents ORDER BY namespace").execute().map(rows -> {
      Set<String> out = new LinkedHashSet<>();
      for (Row r : rows) {
        out.add(r.getString(0));
      }
      return out;
    });
  }

  @Override
  public Future<StoreStats> stats() {
    return pool.query("SELECT (SELECT count(*) FROM documents), (SELECT count(*) FROM chunks),"
            + " (SELECT model FROM embedding_model WHERE id = 1), (SELECT dimension FROM embedding_model WHERE id = 1)")
        .execute().map(rows -> {
          Row r = rows.iterator().next();
          Integer dim = r.getInteger(3);
          return new StoreStats(type(), r.getLong(0), r.getLong(1), r.getString(2), dim == null ? 0 : dim);
        });
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture(); // the pool belongs to the Database
  }

  // ---------------------------------------------------------------- mapping

  private static List<ScoredChunk> toScored(RowSet<Row> rows) {
    List<ScoredChunk> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(new ScoredChunk(r.getString("document_id"), r.getString("namespace"), r.getString("title"),
          r.getInteger("idx"), r.getInteger("total"), r.getString("text"), r.getDouble("score"), json(r, "metadata")));
    }
    return out;
  }

  private static Document toDocument(Row r, boolean withText) {
    return new Document(r.getString("id"), r.getString("namespace"), r.getString("title"), r.getString("source"),
        withText ? r.getString("text") : null, json(r, "metadata"), r.getString("content_hash"),
        r.getInteger("chunk_count"), instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("updated_at")));
  }

  private static JsonObject json(Row r, String column) {
    Object v = r.getValue(column);
    return v instanceof JsonObject o ? o : new JsonObject();
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }

  /** PostgreSQL text cannot hold NUL characters; they carry no meaning in documents. */
  private static String clean(String s) {
    return s == null ? null : s.indexOf('\0') < 0 ? s : s.replace("\0", "");
  }

  /** SHA-256 over the parts, each followed by a NUL byte (the same digest the embedded store computes). */
  static String digest(Object... parts) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (Object part : parts) {
        md.update(String.valueOf(part instanceof JsonObject json ? json.encode() : part).getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String rootMessage(Throwable err) {
    Throwable t = err;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
