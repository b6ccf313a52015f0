package dev.argus.knowledge;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The behaviour every {@link KnowledgeStore} backend must show, written only against the interface.
 * A backend's test extends this class and implements {@link #openStore(Vertx)}. Vectors are small hand-made
 * 8-dimensional vectors, so no embedder is involved. The test thread waits on futures (it is not a Vert.x
 * thread); the stores never block theirs.
 */
@ExtendWith(VertxExtension.class)
public abstract class KnowledgeStoreContract {

  protected static final String MODEL = "contract-model";
  protected static final int DIM = 8;

  protected Vertx vertx;
  protected KnowledgeStore store;

  /**
   * Opens the store under test. The first call in a test gives an empty store; later calls in the same test
   * (after {@link #closeStore}) open the same data again, as a restarted process would.
   */
  protected abstract Future<KnowledgeStore> openStore(Vertx vertx);

  /** Closes a store and whatever {@link #openStore} opened for it (e.g. its database pool). */
  protected Future<Void> closeStore(KnowledgeStore store) {
    return store.close();
  }

  /** Closes the store and opens the same data again. */
  protected KnowledgeStore reopen() {
    await(closeStore(store));
    store = await(openStore(vertx));
    return store;
  }

  @BeforeEach
  void openContractStore(Vertx vertx) {
    this.vertx = vertx;
    this.store = await(openStore(vertx));
    await(store.checkEmbeddingModel(MODEL, DIM));
  }

  @AfterEach
  void closeContractStore() {
    if (store != null) {
      await(closeStore(store));
    }
  }

  // ------------------------------------------------------------------ helpers

  protected static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  protected static Throwable failure(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return fail("expected the operation to fail");
  }

  /** A unit vector along axis {@code a} mixed with axis {@code b}: cos to e_a is {@code wa / |w|}. */
  protected static float[] vec(float... values) {
    float[] v = Arrays.copyOf(values, DIM);
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    for (int i = 0; i < DIM; i++) {
      v[i] /= (float) Math.sqrt(n);
    }
    return v;
  }

  protected static float[] axis(int a) {
    float[] v = new float[DIM];
    v[a] = 1;
    return v;
  }

  protected static Document doc(String id, String namespace, String title, String text, JsonObject metadata) {
    return new Document(id, namespace, title, "test://" + id, text, metadata, null, 0, null, null);
  }

  /** Chunks from (text, vector) pairs. */
  protected static List<Chunk> chunks(String id, Object... textThenVector) {
    List<Chunk> out = new ArrayList<>();
    int total = textThenVector.length / 2;
    for (int i = 0; i < total; i++) {
      out.add(new Chunk(id, i, total, (String) textThenVector[2 * i], (float[]) textThenVector[2 * i + 1]));
    }
    return out;
  }

  protected UpsertResult put(String id, String namespace, String title, JsonObject metadata, Object... textThenVector) {
    List<Chunk> cs = chunks(id, textThenVector);
    String text = cs.stream().map(Chunk::text).collect(Collectors.joining("\n"));
    return await(store.upsert(doc(id, namespace, title, text, metadata), cs));
  }

  protected static List<String> docIds(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::documentId).toList();
  }

  protected static List<String> keys(List<ScoredChunk> hits) {
    return hits.stream().map(ScoredChunk::key).toList();
  }

  private static MetadataCondition cond(String key, MetadataCondition.Op op, Object... values) {
    return new MetadataCondition(key, op, List.of(values));
  }

  // ------------------------------------------------------------------ dedupe and replace

  @Test
  void upsertCreatesThenIgnoresSameContentThenReplaces() {
    UpsertResult first = put("d1", "default", "Refund abuse", new JsonObject().put("category", "pattern"),
        "Refund abuse with empty boxes returned by the buyer.", axis(0),
        "Serial refund claims from one household.", axis(1));
    assertEquals(UpsertResult.Outcome.CREATED, first.outcome());
    assertEquals(2, first.chunks());
    Document stored = await(store.document("d1")).orElseThrow();
    assertEquals(2, stored.chunkCount());
    assertNotNull(stored.contentHash());
    assertEquals(stored.contentHash(), await(store.contentHash("d1")).orElseThrow());

    UpsertResult again = put("d1", "default", "Refund abuse", new JsonObject().put("category", "pattern"),
        "Refund abuse with empty boxes returned by the buyer.", axis(0),
        "Serial refund claims from one household.", axis(1));
    assertEquals(UpsertResult.Outcome.UNCHANGED, again.outcome());
    Document unchanged = await(store.document("d1")).orElseThrow();
    assertEquals(stored.updatedAt(), unchanged.updatedAt());

    UpsertResult replaced = put("d1", "default", "Refund abuse v2", new JsonObject().put("category", "pattern"),
        "Wardrobing: wearing goods once and returning them.", axis(2),
        "Receipt fraud with forged purchase proofs.", axis(3),
        "Return-policy arbitrage across marketplaces.", axis(4));
    assertEquals(UpsertResult.Outcome.REPLACED, replaced.outcome());
    assertEquals(3, replaced.chunks());

    Document now = await(store.document("d1")).orElseThrow();
    assertEquals("Refund abuse v2", now.title());
    assertEquals(3, now.chunkCount());
    assertTrue(now.text().contains("Wardrobing"));
    assertEquals(stored.createdAt(), now.createdAt());
    List<Chunk> cs = await(store.chunks("d1", 0, 99));
    assertEquals(List.of("Wardrobing: wearing goods once and returning them.", "Receipt fraud with forged purchase proofs.",
        "Return-policy arbitrage across marketplaces."), cs.stream().map(Chunk::text).toList());
    assertTrue(cs.stream().allMatch(c -> c.total() == 3));

    // The old chunks are gone from every leg.
    assertTrue(await(store.keywordSearch("household empty boxes", 10, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.trigramSearch("household", 10, SearchFilter.NONE)).isEmpty());
    List<ScoredChunk> byOldVector = await(store.vectorSearch(axis(0), 10, SearchFilter.NONE));
    assertEquals(3, byOldVector.size());
    assertTrue(byOldVector.stream().allMatch(h -> h.text().startsWith("Wardrobing") || h.text().startsWith("Receipt")
        || h.text().startsWith("Return")));
    assertEquals(1, await(store.stats()).documents());
    assertEquals(3, await(store.stats()).chunks());
  }

  @Test
  void consistencyHoldsThroughWritesAndDeletes() {
    Function<List<ConsistencyCheck>, Map<String, Boolean>> byName = checks -> checks.stream()
        .collect(Collectors.toMap(ConsistencyCheck::name, ConsistencyCheck::ok));
    put("c1", "default", "One", new JsonObject(), "first", axis(0), "second", axis(1));
    put("c2", "default", "Two", new JsonObject(), "third", axis(2));
    put("c1", "default", "One", new JsonObject(), "first again", axis(3));
    await(store.delete("c2"));
    Map<String, Boolean> checks = byName.apply(await(store.consistency()));
    assertTrue(checks.keySet().containsAll(List.of("chunk_counts", "vector_index", "embedding_model")), checks.toString());
    assertTrue(checks.values().stream().allMatch(ok -> ok), await(store.consistency()).toString());
  }

  @Test
  void chunksRangeAndContentHash() {
    put("r", "default", "Range", new JsonObject(), "zero", axis(0), "one", axis(1), "two", axis(2), "three", axis(3));
    assertEquals(List.of("one", "two"), await(store.chunks("r", 1, 2)).stream().map(Chunk::text).toList());
    assertTrue(await(store.chunks("r", 7, 9)).isEmpty());
    assertTrue(await(store.chunks("missing", 0, 9)).isEmpty());
    assertTrue(await(store.contentHash("missing")).isEmpty());
    assertTrue(await(store.document("missing")).isEmpty());
  }

  // ------------------------------------------------------------------ atomicity

  @Test
  void failedReplaceLeavesOldVersionIntact() {
    put("a1", "default", "Account takeover", new JsonObject().put("v", 1),
        "Account takeover through credential stuffing.", axis(0),
        "Password reset followed by payout change.", axis(1));
    Document before = await(store.document("a1")).orElseThrow();

    // Third chunk has no text: the write fails in the middle of the chunks.
    List<Chunk> broken = List.of(
        new Chunk("a1", 0, 3, "Quokkasurge replacement first chunk.", axis(5)),
        new Chunk("a1", 1, 3, "Quokkasurge replacement second chunk.", axis(6)),
        new Chunk("a1", 2, 3, null, axis(7)));
    failure(store.upsert(doc("a1", "default", "Account takeover v2", "Quokkasurge replaced text", new JsonObject().put("v", 2)), broken));

    Document after = await(store.document("a1")).orElseThrow();
    assertEquals(before.contentHash(), after.contentHash());
    assertEquals(before.text(), after.text());
    assertEquals("Account takeover", after.title());
    assertEquals(List.of("Account takeover through credential stuffing.", "Password reset followed by payout change."),
        await(store.chunks("a1", 0, 99)).stream().map(Chunk::text).toList());
    assertTrue(await(store.keywordSearch("quokkasurge", 10, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.trigramSearch("quokkasurge", 10, SearchFilter.NONE)).isEmpty());
    List<ScoredChunk> near = await(store.vectorSearch(axis(5), 10, SearchFilter.NONE));
    assertEquals(2, near.size());
    assertTrue(near.stream().noneMatch(h -> h.text().contains("Quokkasurge")));
    assertEquals(2, await(store.keywordSearch("credential stuffing", 10, SearchFilter.NONE)).size()
        + await(store.keywordSearch("payout", 10, SearchFilter.NONE)).size());
  }

  @Test
  void failedNewDocumentLeavesNoTrace() {
    put("keep", "default", "Kept", new JsonObject(), "A document that stays.", axis(0));
    // Second chunk's embedding has the wrong dimension.
    List<Chunk> broken = List.of(
        new Chunk("n1", 0, 3, "Zebrafinch mule network first chunk.", axis(2)),
        new Chunk("n1", 1, 3, "Zebrafinch mule network second chunk.", new float[] {1, 0, 0}),
        new Chunk("n1", 2, 3, "Zebrafinch mule network third chunk.", axis(3)));
    failure(store.upsert(doc("n1", "mules", "Zebrafinch", "Zebrafinch mule network", new JsonObject()), broken));

    assertTrue(await(store.document("n1")).isEmpty());
    assertTrue(await(store.contentHash("n1")).isEmpty());
    assertTrue(await(store.chunks("n1", 0, 99)).isEmpty());
    assertEquals(1, await(store.list(null, 0, 10)).total());
    assertFalse(await(store.namespaces()).contains("mules"));
    assertTrue(await(store.keywordSearch("zebrafinch", 10, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.trigramSearch("zebrafinch", 10, SearchFilter.NONE)).isEmpty());
    assertEquals(List.of("keep"), docIds(await(store.vectorSearch(axis(2), 10, SearchFilter.NONE))));
    assertEquals(1, await(store.stats()).chunks());
    // The same document, well-formed, is then accepted as new.
    assertEquals(UpsertResult.Outcome.CREATED, put("n1", "mules", "Zebrafinch", new JsonObject(),
        "Zebrafinch mule network first chunk.", axis(2)).outcome());
  }

  // ------------------------------------------------------------------ delete

  @Test
  void deleteRemovesDocumentFromEveryLeg() {
    put("x1", "default", "Triangulation fraud", new JsonObject(),
        "Triangulation fraud uses stolen cards to buy goods for real buyers.", axis(0));
    put("x2", "default", "Promotion abuse", new JsonObject(),
        "Promotion abuse with disposable emails such as promo@mailinator.com.", axis(1));
    assertEquals(List.of("x1"), docIds(await(store.keywordSearch("triangulation", 10, SearchFilter.NONE))));

    assertTrue(await(store.delete("x1")));
    assertFalse(await(store.delete("x1")));
    assertTrue(await(store.document("x1")).isEmpty());
    assertTrue(await(store.chunks("x1", 0, 99)).isEmpty());
    assertTrue(await(store.keywordSearch("triangulation stolen cards", 10, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.trigramSearch("triangulation", 10, SearchFilter.NONE)).isEmpty());
    assertEquals(List.of("x2"), docIds(await(store.vectorSearch(axis(0), 10, SearchFilter.NONE))));
    StoreStats stats = await(store.stats());
    assertEquals(1, stats.documents());
    assertEquals(1, stats.chunks());

    // Also after a restart: the vectors loaded from the database do not bring it back.
    reopen();
    assertEquals(List.of("x2"), docIds(await(store.vectorSearch(axis(0), 10, SearchFilter.NONE))));
  }

  // ------------------------------------------------------------------ filters inside each retriever

  /**
   * Ten "noise" documents are better matches for every leg than the two "target" documents; each filter
   * selects only targets. With k = 2 a filter applied after the top-k cut would return nothing.
   */
  private void putFilterFixture() {
    for (int i = 0; i < 10; i++) {
      put(String.format("noise%02d", i), "default", "Chargeback chargeback", new JsonObject()
              .put("category", "noise").put("region", "us").put("year", 2015 + i % 5).put("score", 50 + i)
              .put("date", "2023-0" + (1 + i % 9) + "-10").put("tags", new JsonArray().add("noise")),
          "Chargeback chargeback chargeback fraud SLR-77001 chargeback.", vec(1, 0.05f * i));
    }
    put("target-eu", "cases", "Case file", new JsonObject()
            .put("category", "target").put("region", "eu").put("year", 2021).put("score", 5)
            .put("date", "2024-03-15").put("tags", new JsonArray().add("ato").add("mule")),
        "A long case note that mentions a chargeback and fraud once, SLR-77001, among many other words about "
            + "onboarding, identity checks, devices, addresses, shipping and customer support conversations.",
        vec(1, 2, 1));
    put("target-apac", "cases", "Case file", new JsonObject()
            .put("category", "target").put("region", "apac").put("year", 2023).put("score", 7)
            .put("date", "2024-06-01").put("tags", new JsonArray().add("refund")),
        "Another long case note with one chargeback and fraud mention, SLR-77001, plus words about payouts, "
            + "merchant categories, velocity limits, manual review queues and appeal outcomes.",
        vec(1, 1, 2));
  }

  private Map<String, Function<SearchFilter, List<ScoredChunk>>> legs(int k) {
    Map<String, Function<SearchFilter, List<ScoredChunk>>> legs = new LinkedHashMap<>();
    legs.put("vector", f -> await(store.vectorSearch(axis(0), k, f)));
    legs.put("keyword", f -> await(store.keywordSearch("chargeback fraud", k, f)));
    legs.put("trigram", f -> await(store.trigramSearch("SLR-77001", k, f)));
    return legs;
  }

  @Test
  void filtersApplyInsideEveryRetrieverBeforeTopK() {
    putFilterFixture();
    // Precondition: without a filter, the top 2 of the vector and keyword legs are noise.
    for (String leg : List.of("vector", "keyword")) {
      List<ScoredChunk> top = legs(2).get(leg).apply(SearchFilter.NONE);
      assertEquals(2, top.size(), leg);
      assertTrue(top.stream().allMatch(h -> h.documentId().startsWith("noise")), leg + ": " + docIds(top));
    }
    Set<String> targets = Set.of("target-eu", "target-apac");
    Map<String, SearchFilter> filters = new LinkedHashMap<>();
    filters.put("namespace", SearchFilter.namespace("cases"));
    filters.put("EQ", new SearchFilter(null, List.of(cond("category", MetadataCondition.Op.EQ, "target"))));
    filters.put("IN", new SearchFilter(null, List.of(cond("region", MetadataCondition.Op.IN, "eu", "apac", "latam"))));
    filters.put("IN array", new SearchFilter(null, List.of(cond("tags", MetadataCondition.Op.IN, "ato", "refund"))));
    filters.put("GT number", new SearchFilter(null, List.of(cond("year", MetadataCondition.Op.GT, 2020))));
    filters.put("GTE number", new SearchFilter(null, List.of(cond("year", MetadataCondition.Op.GTE, 2021))));
    filters.put("LT number", new SearchFilter(null, List.of(cond("score", MetadataCondition.Op.LT, 10))));
    filters.put("LTE number", new SearchFilter(null, List.of(cond("score", MetadataCondition.Op.LTE, 7))));
    filters.put("date range", new SearchFilter(null, List.of(cond("date", MetadataCondition.Op.GTE, "2024-03-01"),
        cond("date", MetadataCondition.Op.LT, "2024-07-01"))));
    for (var leg : legs(2).entrySet()) {
      for (var f : filters.entrySet()) {
        List<ScoredChunk> hits = leg.getValue().apply(f.getValue());
        assertEquals(targets, new HashSet<>(docIds(hits)), leg.getKey() + " with " + f.getKey());
      }
    }
    // Narrower filters: exactly one target; a filter nothing satisfies: nothing.
    Map<SearchFilter, List<String>> narrow = Map.of(
        new SearchFilter("cases", List.of(cond("region", MetadataCondition.Op.EQ, "eu"))), List.of("target-eu"),
        new SearchFilter(null, List.of(cond("year", MetadataCondition.Op.GT, 2021))), List.of("target-apac"),
        new SearchFilter(null, List.of(cond("score", MetadataCondition.Op.LTE, 5))), List.of("target-eu"),
        new SearchFilter(null, List.of(cond("date", MetadataCondition.Op.GT, "2024-03-15"))), List.of("target-apac"),
        new SearchFilter(null, List.of(cond("tags", MetadataCondition.Op.EQ, "mule"))), List.of("target-eu"),
        new SearchFilter("default", List.of(cond("category", MetadataCondition.Op.EQ, "target"))), List.of(),
        new SearchFilter(null, List.of(cond("missing_key", MetadataCondition.Op.EQ, "x"))), List.of());
    for (var leg : legs(5).entrySet()) {
      for (var f : narrow.entrySet()) {
        assertEquals(f.getValue(), docIds(leg.getValue().apply(f.getKey())), leg.getKey() + " with " + f.getKey());
      }
    }
  }

  /**
   * Document-level access control: a key limited to namespaces sees only their chunks, in every leg, before the
   * top-k cut, whatever else the filter says. The fixture's ten noise documents (namespace {@code default}) beat the
   * two targets (namespace {@code cases}) in every leg, so a limit applied after the cut would return nothing.
   */
  @Test
  void namespaceLimitAppliesInsideEveryRetrieverBeforeTopK() {
    putFilterFixture();
    put("other-1", "tenant-b", "Chargeback chargeback", new JsonObject().put("category", "target"),
        "Chargeback chargeback fraud SLR-77001 chargeback in another tenant.", vec(1, 0.01f));
    Set<String> cases = Set.of("target-eu", "target-apac");
    for (var leg : legs(2).entrySet()) {
      String name = leg.getKey();
      assertEquals(cases, new HashSet<>(docIds(leg.getValue().apply(SearchFilter.NONE.limitedTo(Set.of("cases"))))),
          name + " limited to cases");
      // a namespace outside the limit finds nothing, even when the request names it
      assertEquals(List.of(), docIds(leg.getValue().apply(SearchFilter.namespace("default")
          .limitedTo(Set.of("cases")))), name + ": default under a cases-only limit");
      // with conditions: the limit and the condition both hold (tenant-b's doc is a "target" too)
      SearchFilter targets = new SearchFilter(null, List.of(cond("category", MetadataCondition.Op.EQ, "target")));
      assertEquals(List.of("other-1"), docIds(leg.getValue().apply(targets.limitedTo(Set.of("tenant-b")))),
          name + " limited to tenant-b");
      assertEquals(cases, new HashSet<>(docIds(legs(5).get(name).apply(targets.limitedTo(Set.of("cases"))))),
          name + " targets limited to cases");
      // two namespaces allowed: the union; an empty limit: nothing
      Set<String> both = new HashSet<>(docIds(legs(5).get(name).apply(targets.limitedTo(Set.of("cases", "tenant-b")))));
      assertEquals(Set.of("target-eu", "target-apac", "other-1"), both, name + " limited to cases and tenant-b");
      assertEquals(List.of(), docIds(leg.getValue().apply(SearchFilter.NONE.limitedTo(Set.of()))), name + " no namespace");
    }
  }

  // ------------------------------------------------------------------ keyword leg

  @Test
  void keywordSearchNeverFailsOnQuerySyntax() {
    put("k1", "default", "Account takeover", new JsonObject(),
        "Account takeover: fraudsters reset passwords, then change the payout account (NOT the email).", axis(0));
    List<String> nasty = List.of("\"unbalanced quote", "account AND", "OR", "NOT account", "NEAR(account takeover, 2)",
        "title:account", "account:", "(((account", "account)))", "*", "acc*", "^account", "account-takeover",
        "'; DROP TABLE chunks; --", "\"\"", "", "   ", "a:b:c", "{title text}: account", "-", "+account", "account\"s",
        "ümlaut naïve café", "🙂 emoji", "AND OR NOT NEAR", "col:\"x\" ^ * ( )", "\u0000", "account\\takeover",
        "x".repeat(5000), "account ".repeat(500));
    for (String q : nasty) {
      assertNotNull(await(store.keywordSearch(q, 5, SearchFilter.NONE)), q);
      assertNotNull(await(store.trigramSearch(q, 5, SearchFilter.NONE)), q);
    }
    assertTrue(await(store.keywordSearch("", 5, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.keywordSearch("  ?!  ", 5, SearchFilter.NONE)).isEmpty());
    assertTrue(await(store.trigramSearch("", 5, SearchFilter.NONE)).isEmpty());
    // Operators in user text are plain words: "NOT account" still finds the account document.
    assertEquals(List.of("k1"), docIds(await(store.keywordSearch("NOT account", 5, SearchFilter.NONE))));
    assertEquals(List.of("k1"), docIds(await(store.keywordSearch("title:account-takeover*", 5, SearchFilter.NONE))));
    assertEquals(1, await(store.stats()).documents());
  }

  @Test
  void keywordSearchUsesOrSemanticsAndRanksByBm25() {
    put("o1", "default", "Mule accounts", new JsonObject(),
        "Money mule accounts receive and forward stolen funds.", axis(0));
    put("o2", "default", "Synthetic identities", new JsonObject(),
        "Synthetic identities combine real and invented data; mule networks sometimes use them.", axis(1));
    put("o3", "default", "Shipping policy", new JsonObject(), "Parcels ship within two days.", axis(2));
    // Unknown words do not prevent a match.
    List<ScoredChunk> hits = await(store.keywordSearch("which mule accounts forward qwertyuiop zxcvbnm funds?", 10,
        SearchFilter.NONE));
    assertEquals(List.of("o1", "o2"), docIds(hits));
    assertTrue(hits.get(0).score() > hits.get(1).score());
    // Stemming: "forwarding" finds "forward".
    assertEquals(List.of("o1"), docIds(await(store.keywordSearch("forwarding", 10, SearchFilter.NONE))));
    // Title terms count too.
    assertEquals("o3", await(store.keywordSearch("shipping", 10, SearchFilter.NONE)).get(0).documentId());
  }

  // ------------------------------------------------------------------ trigram leg

  @Test
  void trigramSearchFindsTyposEmailsAndIdentifiers() {
    put("t1", "default", "Account takeover pattern", new JsonObject(),
        "Account takeover starts with phishing or credential stuffing.", axis(0));
    put("t2", "default", "Case 2291", new JsonObject(),
        "Seller SLR-88213 used the contact j.doe+risk@mailinator.com and IBAN DE89370400440532013000.", axis(1));
    put("t3", "default", "Case 2292", new JsonObject(),
        "Seller SLR-12345 used the contact anna.k@example.org and IBAN GB33BUKB20201555555555.", axis(2));
    put("t4", "default", "Refund abuse", new JsonObject(), "Refund abuse with empty parcels and counts.", axis(3));

    assertEquals("t1", await(store.trigramSearch("acount takeovr", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("t2", await(store.trigramSearch("j.doe+risk@mailinator.com", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("t3", await(store.trigramSearch("anna.k@example.org", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("t2", await(store.trigramSearch("SLR-88213", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("t3", await(store.trigramSearch("slr-12345", 5, SearchFilter.NONE)).get(0).documentId());
    assertEquals("t2", await(store.trigramSearch("DE89370400440532013000", 5, SearchFilter.NONE)).get(0).documentId());
    List<ScoredChunk> hits = await(store.trigramSearch("acount takeovr", 5, SearchFilter.NONE));
    for (int i = 1; i < hits.size(); i++) {
      assertTrue(hits.get(i - 1).score() >= hits.get(i).score());
    }
  }

  // ------------------------------------------------------------------ vector leg

  @Test
  void vectorSearchOrdersByCosine() {
    put("v1", "default", "One", new JsonObject(), "exact", axis(0));
    put("v2", "default", "Two", new JsonObject(), "close", vec(4, 3));       // cos 0.8
    put("v3", "default", "Three", new JsonObject(), "farther", vec(3, 4));   // cos 0.6
    put("v4", "default", "Four", new JsonObject(), "orthogonal", axis(1));   // cos 0
    put("v5", "default", "Five", new JsonObject(), "opposite", vec(-1));     // cos -1
    List<ScoredChunk> hits = await(store.vectorSearch(axis(0), 3, SearchFilter.NONE));
    assertEquals(List.of("v1", "v2", "v3"), docIds(hits));
    assertEquals(1.0, hits.get(0).score(), 1e-5);
    assertEquals(0.8, hits.get(1).score(), 1e-5);
    assertEquals(0.6, hits.get(2).score(), 1e-5);
    List<ScoredChunk> all = await(store.vectorSearch(new float[] {2, 0, 0, 0, 0, 0, 0, 0}, 10, SearchFilter.NONE));
    assertEquals(List.of("v1", "v2", "v3", "v4", "v5"), docIds(all));
    assertEquals(-1.0, all.get(4).score(), 1e-5);
    assertEquals("close", all.get(1).text());
    assertEquals("Two", all.get(1).title());
    assertEquals(0, all.get(1).chunkIndex());
    assertEquals(1, all.get(1).chunkTotal());
  }

  // ------------------------------------------------------------------ listing, namespaces, stats, model

  @Test
  void listIsNewestFirstPagedAndFilteredByNamespace() {
    put("l1", "default", "First", new JsonObject().put("n", 1), "first text", axis(0));
    put("l2", "cases", "Second", new JsonObject(), "second text", axis(1));
    put("l3", "default", "Third", new JsonObject(), "third text", axis(2));
    DocumentPage all = await(store.list(null, 0, 10));
    assertEquals(3, all.total());
    assertEquals(List.of("l3", "l2", "l1"), all.documents().stream().map(Document::id).toList());
    assertNull(all.documents().get(0).text());
    assertEquals(1, all.documents().get(2).metadata().getInteger("n"));
    DocumentPage page = await(store.list(null, 1, 1));
    assertEquals(3, page.total());
    assertEquals(List.of("l2"), page.documents().stream().map(Document::id).toList());
    DocumentPage def = await(store.list("default", 0, 10));
    assertEquals(2, def.total());
    assertEquals(List.of("l3", "l1"), def.documents().stream().map(Document::id).toList());
    assertEquals(0, await(store.list("nowhere", 0, 10)).total());
  }

  @Test
  void namespacesAndStats() {
    assertTrue(await(store.namespaces()).isEmpty());
    put("s1", "default", "A", new JsonObject(), "alpha", axis(0), "beta", axis(1));
    put("s2", "cases", "B", new JsonObject(), "gamma", axis(2));
    put("s3", "cases", "C", new JsonObject(), "delta", axis(3), "epsilon", axis(4), "zeta", axis(5));
    assertEquals(Set.of("default", "cases"), await(store.namespaces()));
    StoreStats stats = await(store.stats());
    assertEquals(store.type(), stats.type());
    assertEquals(3, stats.documents());
    assertEquals(6, stats.chunks());
    assertEquals(MODEL, stats.embeddingModel());
    assertEquals(DIM, stats.dimension());
    await(store.delete("s1"));
    assertEquals(Set.of("cases"), await(store.namespaces()));
    assertEquals(4, await(store.stats()).chunks());
  }

  @Test
  void metadataKeysAreThoseSomeDocumentHas() {
    assertFalse(await(store.hasMetadataKey("date")), "an empty store has no metadata fields");
    put("m1", "default", "A", new JsonObject().put("region", "eu").put("case", new JsonObject().put("risk", "high")),
        "alpha", axis(0));
    put("m2", "cases", "B", new JsonObject().put("date", "2024-03-15"), "beta", axis(1));
    assertTrue(await(store.hasMetadataKey("region")));
    assertTrue(await(store.hasMetadataKey("case")), "an object-valued field");
    assertTrue(await(store.hasMetadataKey("date")), "a field of a document in another namespace");
    assertFalse(await(store.hasMetadataKey("risk")), "a nested field is not a top-level one");
    assertFalse(await(store.hasMetadataKey("Region")), "field names are case-sensitive");
    assertFalse(await(store.hasMetadataKey("reg")), "not a prefix match");
    await(store.delete("m2"));
    assertFalse(await(store.hasMetadataKey("date")), "gone with the last document that had it");
  }

  @Test
  void embeddingModelIsRecordedAndAMismatchIsRefused() {
    await(store.checkEmbeddingModel(MODEL, DIM));
    assertInstanceOf(EmbeddingModelMismatchException.class, failure(store.checkEmbeddingModel("other-model", DIM)));
    assertInstanceOf(EmbeddingModelMismatchException.class, failure(store.checkEmbeddingModel(MODEL, 16)));
    reopen();
    assertInstanceOf(EmbeddingModelMismatchException.class, failure(store.checkEmbeddingModel("other-model", DIM)));
    await(store.checkEmbeddingModel(MODEL, DIM));
    assertEquals(MODEL, await(store.stats()).embeddingModel());
  }

  // ------------------------------------------------------------------ persistence

  @Test
  void searchResultsSurviveCloseAndReopen() {
    putFilterFixture();
    put("p1", "default", "Account takeover", new JsonObject(), "Account takeover via SIM swap.", vec(0, 0, 1),
        "Payout account changed after a password reset.", vec(0, 0, 3, 1));
    SearchFilter target = new SearchFilter(null, List.of(cond("category", MetadataCondition.Op.EQ, "target")));
    List<List<String>> before = List.of(
        keys(await(store.vectorSearch(axis(0), 5, SearchFilter.NONE))),
        keys(await(store.vectorSearch(axis(2), 3, SearchFilter.NONE))),
        keys(await(store.vectorSearch(axis(0), 5, target))),
        keys(await(store.keywordSearch("account takeover chargeback", 5, SearchFilter.NONE))),
        keys(await(store.trigramSearch("acount takeovr", 5, SearchFilter.NONE))));
    DocumentPage listBefore = await(store.list(null, 0, 50));
    Document p1Before = await(store.document("p1")).orElseThrow();

    reopen();

    List<List<String>> after = List.of(
        keys(await(store.vectorSearch(axis(0), 5, SearchFilter.NONE))),
        keys(await(store.vectorSearch(axis(2), 3, SearchFilter.NONE))),
        keys(await(store.vectorSearch(axis(0), 5, target))),
        keys(await(store.keywordSearch("account takeover chargeback", 5, SearchFilter.NONE))),
        keys(await(store.trigramSearch("acount takeovr", 5, SearchFilter.NONE))));
    assertEquals(before, after);
    assertEquals(List.of("p1#0", "p1#1"), after.get(1).subList(0, 2));
    assertEquals(listBefore.total(), await(store.list(null, 0, 50)).total());
    assertEquals(p1Before, await(store.document("p1")).orElseThrow());
    assertEquals(13, await(store.stats()).documents());
    // Unchanged content stays unchanged after a restart.
    assertEquals(UpsertResult.Outcome.UNCHANGED, put("p1", "default", "Account takeover", new JsonObject(),
        "Account takeover via SIM swap.", vec(0, 0, 1), "Payout account changed after a password reset.", vec(0, 0, 3, 1))
        .outcome());
  }

  // ------------------------------------------------------------------ concurrency

  @Test
  void concurrentUpsertsOfTheSameDocumentKeepOneCopy() {
    List<Future<UpsertResult>> writes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      List<Chunk> cs = chunks("c1", "Concurrent chunk one.", axis(0), "Concurrent chunk two.", axis(1));
      writes.add(store.upsert(doc("c1", "default", "Concurrent", "Concurrent chunk one.\nConcurrent chunk two.",
          new JsonObject()), cs));
    }
    await(Future.all(writes));
    Map<UpsertResult.Outcome, Long> outcomes = writes.stream()
        .collect(Collectors.groupingBy(f -> f.result().outcome(), Collectors.counting()));
    assertEquals(Map.of(UpsertResult.Outcome.CREATED, 1L, UpsertResult.Outcome.UNCHANGED, 7L), outcomes);
    assertEquals(1, await(store.list(null, 0, 10)).total());
    assertEquals(2, await(store.stats()).chunks());
    assertEquals(List.of("c1#0", "c1#1"), keys(await(store.vectorSearch(axis(0), 10, SearchFilter.NONE))));
    assertEquals(List.of("c1#0", "c1#1"), keys(await(store.keywordSearch("concurrent chunk", 10, SearchFilter.NONE)))
        .stream().sorted().toList());

    // Concurrent different versions of one document: one wins, the store holds exactly that one, whole.
    List<Future<UpsertResult>> versions = new ArrayList<>();
    for (int v = 0; v < 4; v++) {
      List<Chunk> cs = new ArrayList<>();
      for (int i = 0; i <= v; i++) {
        cs.add(new Chunk("c2", i, v + 1, "version " + v + " chunk " + i, axis(i)));
      }
      versions.add(store.upsert(doc("c2", "default", "Versions", "version " + v, new JsonObject()), cs));
    }
    await(Future.all(versions));
    Document c2 = await(store.document("c2")).orElseThrow();
    List<Chunk> c2Chunks = await(store.chunks("c2", 0, 99));
    assertEquals(c2.chunkCount(), c2Chunks.size());
    String version = c2.text();
    assertTrue(c2Chunks.stream().allMatch(c -> c.text().startsWith(version + " ")), version + " vs " + c2Chunks);
    long c2Vectors = await(store.vectorSearch(axis(0), 100, SearchFilter.NONE)).stream()
        .filter(h -> h.documentId().equals("c2")).count();
    assertEquals(c2Chunks.size(), c2Vectors);
  }
}
