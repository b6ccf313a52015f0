package dev.argus.knowledge.pg;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.DocumentDigest;
import dev.argus.knowledge.EmbeddingModelMismatchException;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.UpsertResult.Outcome;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PostgreSQL-specific behaviour of {@link PgKnowledgeStore} on a fresh database: upsert, search legs, filters. */
class PgStoreBehaviourTest {

  private static PgTestStore fixture;
  private static PgTestDatabase pg;
  private static PgKnowledgeStore store;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("test-model", 4);
    pg = fixture.pg;
    store = fixture.store;
    put("fraud-1", "Synthetic identity fraud", "ops", new JsonObject().put("category", "pattern").put("year", 2021)
            .put("date", "2021-03-04").put("tags", new JsonArray().add("identity").add("onboarding")),
        List.of("Synthetic identities combine a real national id with invented names.",
            "Contact john.doe@example.com for the seller S-48213 case."), new float[] {1, 0, 0, 0});
    put("ato-1", "Account takeover", "ops", new JsonObject().put("category", "pattern").put("year", 2023)
            .put("date", "2023-11-20").put("tags", new JsonArray().add("ato")),
        List.of("Account takeover starts with credential stuffing and a password reset.",
            "Mule accounts receive the stolen funds quickly."), new float[] {0, 1, 0, 0});
    put("policy-1", "Refund policy", "legal", new JsonObject().put("category", "policy").put("year", 2019)
            .put("date", "2019-01-15"),
        List.of("Refunds above 500 EUR need a second review.", "Promotion abuse is handled by the risk team."),
        new float[] {0, 0, 1, 0});
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  private static void put(String id, String title, String ns, JsonObject meta, List<String> texts, float[] base) {
    List<Chunk> chunks = new java.util.ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      float[] v = base.clone();
      v[3] = 0.1f * i;
      chunks.add(new Chunk(id, i, texts.size(), texts.get(i), unit(v)));
    }
    await(store.upsert(doc(id, title, ns, meta, String.join(" ", texts)), chunks));
  }

  static Document doc(String id, String title, String ns, JsonObject meta, String text) {
    return new Document(id, ns, title, "test", text, meta, DocumentDigest.of(title, text), 0, null, null);
  }

  static float[] unit(float[] v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(n));
    }
    return out;
  }

  @Test
  void upsertIsCreatedUnchangedReplacedAndDeleteRemovesEverything() {
    Document d = doc("tmp-1", "Temp", "default", new JsonObject(), "one two");
    List<Chunk> two = List.of(new Chunk("tmp-1", 0, 2, "alpha text", unit(new float[] {1, 1, 0, 0})),
        new Chunk("tmp-1", 1, 2, "beta text", unit(new float[] {1, 1, 1, 0})));
    assertEquals(Outcome.CREATED, await(store.upsert(d, two)).outcome());
    assertEquals(Outcome.UNCHANGED, await(store.upsert(d, two)).outcome());
    Document changed = doc("tmp-1", "Temp", "default", new JsonObject(), "one two three");
    var replaced = await(store.upsert(changed, List.of(new Chunk("tmp-1", 0, 1, "gamma text", unit(new float[] {0, 1, 1, 0})))));
    assertEquals(Outcome.REPLACED, replaced.outcome());
    List<Chunk> chunks = await(store.chunks("tmp-1", 0, 10));
    assertEquals(1, chunks.size());
    assertEquals("gamma text", chunks.get(0).text());
    assertEquals(1, await(store.document("tmp-1")).orElseThrow().chunkCount());
    assertEquals(changed.contentHash(), await(store.contentHash("tmp-1")).orElseThrow());
    assertTrue(await(store.delete("tmp-1")));
    assertFalse(await(store.delete("tmp-1")));
    assertTrue(await(store.document("tmp-1")).isEmpty());
    assertTrue(await(store.keywordSearch("gamma", 10, SearchFilter.NONE)).isEmpty());
  }

  @Test
  void keywordSearchOrsAnalysedTermsAndNeverFailsOnSyntax() {
    // One matching word among words that match nothing still finds the chunk (OR semantics).
    List<ScoredChunk> hits = await(store.keywordSearch("what about quantum zebras and credential stuffing?", 10, SearchFilter.NONE));
    assertEquals("ato-1", hits.get(0).documentId());
    assertEquals(0, hits.get(0).chunkIndex());
    for (String nasty : List.of("'", "\\", "a & | ! ( ) :* <-> b", "\"quoted\" NOT OR AND", "it's o'brien\\'s",
        "::", "!!!", "", "  ", "refund's)(", "foo:1A & bar")) {
      await(store.keywordSearch(nasty, 5, SearchFilter.NONE)); // no exception
    }
    assertEquals("policy-1", await(store.keywordSearch("refunds! (review) &", 5, SearchFilter.NONE)).get(0).documentId());
  }

  @Test
  void keywordWeighsRareTermsAboveCommonOnesOnceStatisticsExist() {
    for (int i = 0; i < 30; i++) {
      String id = String.format("idf-a%02d", i);
      await(store.upsert(doc(id, "Report " + i, "idf", new JsonObject(), "common report"),
          List.of(new Chunk(id, 0, 1, "A plain common report about the common ledger.", unit(new float[] {1, 1, 1, 1})))));
    }
    await(store.upsert(doc("idf-z", "Report z", "idf", new JsonObject(), "zanzibar"),
        List.of(new Chunk("idf-z", 0, 1, "A plain zanzibar report about the ledger.", unit(new float[] {1, 1, 1, 1})))));
    pg.execute(PgTextSql.ANALYZE_KNOWLEDGE_TABLES); // what autovacuum does as the store grows
    SearchFilter idf = SearchFilter.namespace("idf");
    // Each document holds one of the two query terms once; "zanzibar" is in 1 of 31 chunks, "common" in 30.
    List<ScoredChunk> hits = await(store.keywordSearch("common zanzibar", 5, idf));
    assertEquals("idf-z", hits.get(0).documentId());
    assertTrue(hits.get(0).score() > 2 * hits.get(1).score(), hits.get(0).score() + " vs " + hits.get(1).score());
  }

  @Test
  void keywordRanksTitleMatchesAboveBodyMatches() {
    // "identity" is in fraud-1's title (weight A) for both of its chunks; the ranking puts them first.
    List<ScoredChunk> hits = await(store.keywordSearch("identity", 10, SearchFilter.NONE));
    assertEquals(2, hits.size());
    assertTrue(hits.stream().allMatch(h -> h.documentId().equals("fraud-1")));
    assertTrue(hits.get(0).score() > 0);
  }

  @Test
  void trigramFindsTyposInsideLongTextAndTitles() {
    List<ScoredChunk> email = await(store.trigramSearch("jon.doe@exmple.com", 5, SearchFilter.NONE));
    assertEquals("fraud-1", email.get(0).documentId());
    assertEquals(1, email.get(0).chunkIndex());
    List<ScoredChunk> seller = await(store.trigramSearch("S-48213", 5, SearchFilter.NONE));
    assertEquals("fraud-1", seller.get(0).documentId());
    List<ScoredChunk> title = await(store.trigramSearch("Acount takeovr", 5, SearchFilter.NONE));
    assertEquals("ato-1", title.get(0).documentId());
    assertTrue(await(store.trigramSearch("qqqqzzzz", 5, SearchFilter.NONE)).isEmpty());
  }

  @Test
  void filtersApplyInsideEveryLeg() {
    float[] q = unit(new float[] {1, 1, 1, 0});
    SearchFilter legal = SearchFilter.namespace("legal");
    assertEquals(List.of("policy-1", "policy-1"), ids(await(store.vectorSearch(q, 10, legal))));
    SearchFilter recent = new SearchFilter(null, List.of(new MetadataCondition("year", Op.GTE, List.of(2021))));
    assertEquals(4, await(store.vectorSearch(q, 10, recent)).size());
    assertTrue(ids(await(store.vectorSearch(q, 10, recent))).stream().noneMatch("policy-1"::equals));
    SearchFilter dates = new SearchFilter(null, List.of(new MetadataCondition("date", Op.LT, List.of("2021-12-31")),
        new MetadataCondition("date", Op.GT, List.of("2019-06-01"))));
    assertEquals(List.of("fraud-1", "fraud-1"), ids(await(store.vectorSearch(q, 10, dates))));
    SearchFilter tags = new SearchFilter(null, List.of(new MetadataCondition("tags", Op.IN, List.of("ato", "nope"))));
    assertEquals(List.of("ato-1"), ids(await(store.keywordSearch("mule accounts stolen funds", 10, tags))).stream().distinct().toList());
    SearchFilter eq = new SearchFilter("ops", List.of(new MetadataCondition("category", Op.EQ, List.of("pattern")),
        new MetadataCondition("year", Op.IN, List.of(2023, 1999))));
    assertEquals(List.of("ato-1"), ids(await(store.trigramSearch("Acount takeovr", 10, eq))).stream().distinct().toList());
    SearchFilter none = new SearchFilter(null, List.of(new MetadataCondition("category", Op.EQ, List.of("policy"))));
    assertTrue(await(store.keywordSearch("credential stuffing", 10, none)).isEmpty());
    // Numbers compare numerically: 2019 < 2100 although "2100" > "2019" either way; 9 < 10 only numerically.
    SearchFilter numeric = new SearchFilter(null, List.of(new MetadataCondition("year", Op.LT, List.of(2020.5))));
    assertEquals(List.of("policy-1"), ids(await(store.vectorSearch(q, 10, numeric))).stream().distinct().toList());
  }

  @Test
  void vectorSearchScoresAreCosineSimilarity() {
    List<ScoredChunk> hits = await(store.vectorSearch(unit(new float[] {1, 0, 0, 0}), 2, SearchFilter.NONE));
    assertEquals("fraud-1", hits.get(0).documentId());
    assertEquals(0, hits.get(0).chunkIndex());
    assertEquals(1.0, hits.get(0).score(), 1e-5);
    // second chunk of fraud-1 is (1,0,0,0.1)/|..|: cosine = 1/sqrt(1.01)
    assertEquals(1 / Math.sqrt(1.01), hits.get(1).score(), 1e-5);
    assertEquals("pattern", hits.get(0).metadata().getString("category"));
    assertEquals("Synthetic identity fraud", hits.get(0).title());
  }

  @Test
  void anotherEmbeddingModelIsRefusedOnceVectorsExist() {
    var err = assertThrows(EmbeddingModelMismatchException.class, () -> await(store.checkEmbeddingModel("other", 8)));
    assertTrue(err.getMessage().contains("test-model"));
    await(store.checkEmbeddingModel("test-model", 4)); // same model: fine, idempotent
    var stats = await(store.stats());
    assertEquals("test-model", stats.embeddingModel());
    assertEquals(4, stats.dimension());
    assertEquals("postgres", stats.type());
  }

  @Test
  void listsNamespacesAndPages() {
    assertTrue(await(store.namespaces()).containsAll(List.of("ops", "legal")));
    var page = await(store.list("ops", 0, 1));
    assertEquals(2, page.total());
    assertEquals(1, page.documents().size());
    assertEquals("ato-1", page.documents().get(0).id()); // newest first
    assertEquals(null, page.documents().get(0).text());
  }

  @Test
  void nulCharactersDoNotBreakIngestion() {
    Document d = doc("nul-1", "Nul\0title", "default", new JsonObject(), "a\0b");
    await(store.upsert(d, List.of(new Chunk("nul-1", 0, 1, "zero\0byte", unit(new float[] {0, 0, 0, 1})))));
    assertEquals("zerobyte", await(store.chunks("nul-1", 0, 0)).get(0).text());
    await(store.delete("nul-1"));
  }

  private static List<String> ids(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::documentId).toList();
  }
}
