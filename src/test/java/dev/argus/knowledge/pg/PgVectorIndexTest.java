package dev.argus.knowledge.pg;

import dev.argus.config.PgConf;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HNSW index is built with the configured parameters and used by vector search, and filtered queries still
 * return their complete top-k even when the filter is very selective (0.5% of the rows) and ef_search is small.
 */
class PgVectorIndexTest {

  private static final int DIM = 32;
  private static final int DOCS = 400;
  private static final int CHUNKS = 10;

  private static Vertx vertx;
  private static PgTestDatabase pg;
  private static Database db;
  private static PgConf conf;
  private static PgKnowledgeStore store;
  /** chunk key -> vector, and the metadata of its document. */
  private static final Map<String, float[]> vectors = new HashMap<>();
  private static final Map<String, JsonObject> meta = new HashMap<>();

  @BeforeAll
  static void open() {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    PgConf base = pg.conf();
    conf = new PgConf(base.host(), base.port(), base.database(), base.user(), base.password(), base.poolSize(),
        base.connectRetries(), base.connectBackoffMs(), 8, 32, 10, 500, 6000); // m=8, ef_construction=32, ef_search=10
    db = await(Database.postgres(vertx, conf));
    store = new PgKnowledgeStore(db, conf);
    await(store.checkEmbeddingModel("random", DIM));
    Random rnd = new Random(42);
    List<Future<?>> writes = new ArrayList<>();
    for (int d = 0; d < DOCS; d++) {
      String id = "doc-" + d;
      JsonObject m = new JsonObject().put("group", d % 4).put("rare", d == 7 || d == 300);
      List<Chunk> chunks = new ArrayList<>();
      for (int i = 0; i < CHUNKS; i++) {
        float[] v = randomUnit(rnd);
        chunks.add(new Chunk(id, i, CHUNKS, "chunk " + i + " of " + id, v));
        vectors.put(id + "#" + i, v);
        meta.put(id + "#" + i, m);
      }
      writes.add(store.upsert(new Document(id, "default", "Doc " + d, null, "text of " + id, m, "h" + d, 0, null, null), chunks));
      if (writes.size() == 8) {
        await(Future.all(writes));
        writes.clear();
      }
    }
    await(Future.all(writes));
  }

  @AfterAll
  static void close() {
    await(db.close());
    await(vertx.close());
    pg.close();
  }

  static float[] randomUnit(Random rnd) {
    float[] v = new float[DIM];
    double n = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
      n += v[i] * v[i];
    }
    for (int i = 0; i < DIM; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  static double cosine(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /** Exact top-k by cosine among the chunks whose document metadata passes {@code keep}. */
  static List<String> exact(float[] q, int k, java.util.function.Predicate<JsonObject> keep) {
    return vectors.entrySet().stream().filter(e -> keep.test(meta.get(e.getKey())))
        .sorted(Comparator.comparingDouble((Map.Entry<String, float[]> e) -> -cosine(q, e.getValue())))
        .limit(k).map(Map.Entry::getKey).collect(Collectors.toList());
  }

  @Test
  void hnswIndexHasTheConfiguredParametersAndIsUsed() {
    List<Object> params = new ArrayList<>(List.of(new com.pgvector.PGvector(randomUnit(new Random(1))).toString()));
    // A broad filter (75% of the rows) is applied inside the HNSW scan.
    PgFilterSql.Clauses clauses = PgFilterSql.clauses(
        new SearchFilter(null, List.of(new MetadataCondition("group", Op.GTE, List.of(1)))), 10, params);
    String plan = await(db.pool().withTransaction(conn -> conn.query("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
        .execute().compose(v -> conn.preparedQuery("EXPLAIN " + PgSql.vectorSql(DIM, clauses)).execute(Tuple.from(params)))
        .map(rows -> {
          StringBuilder sb = new StringBuilder();
          for (Row r : rows) {
            sb.append(r.getString(0)).append('\n');
          }
          return sb.toString();
        })));
    assertTrue(plan.contains("Index Scan using " + PgSql.VECTOR_INDEX), plan);
    String options = await(db.pool().query("SELECT array_to_string(c.reloptions, ',') || ' ' || am.amname FROM pg_class c"
        + " JOIN pg_am am ON am.oid = c.relam WHERE c.relname = '" + PgSql.VECTOR_INDEX + "'").execute())
        .iterator().next().getString(0);
    assertEquals("m=8,ef_construction=32 hnsw", options);
    String indexDef = await(db.pool().query("SELECT pg_get_indexdef('" + PgSql.VECTOR_INDEX + "'::regclass)").execute())
        .iterator().next().getString(0);
    assertTrue(indexDef.contains("halfvec_cosine_ops") && indexDef.contains("halfvec(" + DIM + ")"), indexDef);
  }

  /**
   * A database from an earlier release has its HNSW index over the full-precision vectors: opening the store
   * replaces it by the half-precision one (same name and parameters), which vector search then uses.
   */
  @Test
  void anIndexOfAnEarlierReleaseIsReplacedAtOpen() {
    await(db.pool().query(PgSql.DROP_VECTOR_INDEX).execute());
    await(db.pool().query("CREATE INDEX " + PgSql.VECTOR_INDEX + " ON chunks USING hnsw (embedding vector_cosine_ops)"
        + " WITH (m = 8, ef_construction = 32)").execute());
    String old = indexDefinition();
    assertFalse(PgSql.isCurrentVectorIndex(old, DIM), old);

    await(store.checkEmbeddingModel("random", DIM));
    String now = indexDefinition();
    assertTrue(PgSql.isCurrentVectorIndex(now, DIM), now);
    assertTrue(now.contains("m='8'") && now.contains("ef_construction='32'"), now);
    List<ScoredChunk> hits = await(store.vectorSearch(vectors.get("doc-5#3"), 10, SearchFilter.NONE));
    assertEquals("doc-5#3", hits.get(0).key());
    assertEquals(1.0, hits.get(0).score(), 1e-6, "scored on the full-precision vectors");
    await(store.checkEmbeddingModel("random", DIM)); // the current index stays as it is
    assertEquals(now, indexDefinition());
  }

  private static String indexDefinition() {
    return await(db.pool().query(PgSql.VECTOR_INDEX_DEFINITION).execute()).iterator().next().getString(0);
  }

  @Test
  void selectiveFilterStillReturnsTheExactTopK() {
    Random rnd = new Random(7);
    SearchFilter rare = new SearchFilter(null, List.of(new MetadataCondition("rare", Op.EQ, List.of(true))));
    for (int t = 0; t < 5; t++) {
      float[] q = randomUnit(rnd);
      List<String> got = keys(await(store.vectorSearch(q, 10, rare)));
      assertEquals(exact(q, 10, m -> m.getBoolean("rare")), got); // the 20 rare chunks hold the whole answer
    }
    // Asking for more than the filter admits returns every admitted chunk (20 = 2 documents x 10 chunks).
    assertEquals(20, await(store.vectorSearch(randomUnit(rnd), 30, rare)).size());
  }

  @Test
  void moderatelySelectiveFilterReturnsFullTopKWithHighRecall() {
    Random rnd = new Random(11);
    SearchFilter group = new SearchFilter(null, List.of(new MetadataCondition("group", Op.EQ, List.of(2))));
    int found = 0;
    int wanted = 0;
    for (int t = 0; t < 10; t++) {
      float[] q = randomUnit(rnd);
      List<ScoredChunk> hits = await(store.vectorSearch(q, 20, group));
      assertEquals(20, hits.size());
      assertTrue(hits.stream().allMatch(h -> h.metadata().getInteger("group") == 2));
      for (int i = 1; i < hits.size(); i++) {
        assertTrue(hits.get(i - 1).score() >= hits.get(i).score(), "hits are re-sorted by distance");
      }
      Set<String> truth = new HashSet<>(exact(q, 20, m -> m.getInteger("group") == 2));
      found += (int) keys(hits).stream().filter(truth::contains).count();
      wanted += 20;
    }
    assertTrue(found >= 0.9 * wanted, "recall " + found + "/" + wanted);
  }

  private static List<String> keys(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::key).toList();
  }
}
