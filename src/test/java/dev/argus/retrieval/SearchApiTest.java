package dev.argus.retrieval;

import dev.argus.app.Services;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.config.RetrievalConf;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.retrieval.KnowledgeFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/search} end to end: the whole service on a temporary SQLite file with the bundled embedder,
 * real HTTP. Each retriever is asked for only {@code topK} candidates ({@code retrieval.candidates = 1}), so a
 * filter applied after the retrievers' cut instead of inside them would return too few results.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchApiTest {

  private Vertx vertx;
  private TestApp app;
  private WebClient client;
  private Services services;
  private ArgusConfig conf;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    conf = configure(TestApp.config(TestApp.tempDataDir()).with("retrieval", "candidates", 1)
        .with("retrieval", "mmrLambda", 0.3));
    app = await(TestApp.start(vertx, conf));
    services = app.main().services();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    KnowledgeFixture.ingestAll(vertx, services);
  }

  /** The service's configuration; a subclass runs the same tests on another store. */
  protected ArgusConfig configure(ArgusConfig conf) {
    return conf;
  }

  /** Called after the service has stopped. */
  protected void released() {
  }

  @AfterAll
  void stop() throws Exception {
    if (vertx != null) {
      await(vertx.close());
    }
    released();
  }

  private HttpResponse<Buffer> post(JsonObject body) throws Exception {
    return await(client.post("/api/search").sendJsonObject(body));
  }

  private JsonObject search(JsonObject body) throws Exception {
    HttpResponse<Buffer> response = post(body);
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  private JsonObject search(String query) throws Exception {
    return search(new JsonObject().put("query", query));
  }

  private static List<JsonObject> results(JsonObject response) {
    List<JsonObject> out = new ArrayList<>();
    response.getJsonArray("results").forEach(o -> out.add((JsonObject) o));
    return out;
  }

  private static List<String> keys(JsonObject response) {
    return results(response).stream().map(r -> r.getString("documentId") + "#" + r.getInteger("chunkIndex")).toList();
  }

  private void assertError(JsonObject body, int status, String code) throws Exception {
    HttpResponse<Buffer> response = post(body);
    assertEquals(status, response.statusCode(), response.bodyAsString());
    JsonObject json = response.bodyAsJsonObject();
    assertEquals(code, json.getString("code"), json.encode());
    assertNotNull(json.getString("error"));
  }

  @Test
  void responseShapeAndPerRetrieverRanks() throws Exception {
    JsonObject body = new JsonObject().put("query", "stolen credentials account takeover payout bank account")
        .put("topK", 3).put("fusion", "rrf").put("retrievers", new JsonArray().add("vector").add("keyword").add("trigram"));
    JsonObject hybrid = search(body);
    assertEquals(body.getString("query"), hybrid.getString("query"));
    assertEquals(body.getString("query"), hybrid.getString("cleanedQuery"));
    assertFalse(hybrid.getBoolean("cached"));
    JsonObject timings = hybrid.getJsonObject("timings");
    for (String t : List.of("embedMs", "vectorMs", "keywordMs", "trigramMs", "fusionMs", "totalMs")) {
      assertTrue(timings.getDouble(t) >= 0, t);
    }
    assertTrue(timings.getDouble("totalMs") >= timings.getDouble("embedMs"));
    assertEquals(new JsonObject("{\"namespace\":null,\"conditions\":[],\"fromQuery\":[],\"relaxed\":false}"), hybrid.getJsonObject("filters"));
    List<JsonObject> results = results(hybrid);
    assertEquals(3, results.size());
    assertEquals("ato-policy", results.get(0).getString("documentId"));
    JsonObject first = results.get(0);
    for (String f : List.of("documentId", "namespace", "title", "chunkIndex", "chunkTotal", "text", "score", "metadata",
        "retrievers")) {
      assertTrue(first.containsKey(f), f);
    }
    assertEquals("policy", first.getJsonObject("metadata").getString("category"));

    // every per-retriever rank and score is that retriever's own ranking, as single mode returns it
    for (Retriever r : Retriever.values()) {
      JsonObject single = search(body.copy().put("retrievers", new JsonArray().add(r.wireName())));
      List<String> singleKeys = keys(single);
      List<JsonObject> singleResults = results(single);
      for (JsonObject result : singleResults) {
        JsonObject leg = result.getJsonObject("retrievers").getJsonObject(r.wireName());
        assertEquals(1, result.getJsonObject("retrievers").size(), "single mode: only its own retriever");
        assertEquals(leg.getDouble("score"), result.getDouble("score"), 1e-12, "single mode keeps the leg's score");
      }
      for (int i = 0; i < singleResults.size(); i++) {
        assertEquals(i + 1, singleResults.get(i).getJsonObject("retrievers").getJsonObject(r.wireName()).getInteger("rank"));
      }
      for (JsonObject result : results) {
        JsonObject leg = result.getJsonObject("retrievers").getJsonObject(r.wireName());
        String key = result.getString("documentId") + "#" + result.getInteger("chunkIndex");
        if (leg == null) {
          assertFalse(singleKeys.contains(key), r + " found " + key + " but the hybrid result does not say so");
        } else {
          assertEquals(singleKeys.indexOf(key) + 1, leg.getInteger("rank"), r + " rank of " + key);
          assertEquals(singleResults.get(singleKeys.indexOf(key)).getDouble("score"), leg.getDouble("score"), 1e-9);
        }
      }
    }
    // the fused score is RRF with k = 60 over the reported ranks
    for (JsonObject result : results) {
      double expected = 0;
      JsonObject legs = result.getJsonObject("retrievers");
      for (String name : legs.fieldNames()) {
        expected += 1.0 / (60 + legs.getJsonObject(name).getInteger("rank"));
      }
      assertEquals(expected, result.getDouble("score"), 1e-12);
    }
  }

  @Test
  void weightedFusionOverHttp() throws Exception {
    JsonObject response = search(new JsonObject().put("query", "bank transfers stolen funds").put("topK", 4)
        .put("fusion", "weighted").put("retrievers", new JsonArray().add("vector").add("keyword")));
    List<JsonObject> results = results(response);
    assertFalse(results.isEmpty());
    for (JsonObject r : results) {
      assertTrue(r.getDouble("score") >= 0 && r.getDouble("score") <= 1.0 + 1e-12, r.encode());
      assertFalse(r.getJsonObject("retrievers").containsKey("trigram"));
    }
    assertEquals("mule-2019", results.get(0).getString("documentId"));
  }

  @Test
  void filtersApplyInsideEveryRetriever() throws Exception {
    // The query matches the account-takeover policy best, but the filter allows only patterns; with topK 1 and
    // one candidate per retriever, a filter applied after the cut would leave nothing.
    String query = "payout bank account";
    for (Retriever r : Retriever.values()) {
      JsonObject filtered = search(new JsonObject().put("query", query).put("topK", 1)
          .put("retrievers", new JsonArray().add(r.wireName()))
          .put("filters", new JsonObject().put("category", "pattern")));
      List<JsonObject> results = results(filtered);
      assertEquals(1, results.size(), r + ": " + filtered.encode());
      assertEquals("pattern", results.get(0).getJsonObject("metadata").getString("category"), r.wireName());
    }
    // vector search returns every chunk that passes the filter (fewer than topK here): exact sets; the text
    // retrievers return a subset of them
    for (Retriever r : Retriever.values()) {
      JsonObject body = new JsonObject().put("query", "bank account transfers").put("topK", 10)
          .put("retrievers", new JsonArray().add(r.wireName()));
      assertFiltered(r, search(body.copy().put("filters",
          new JsonObject().put("year", new JsonObject().put("gte", 2020).put("lt", 2024)))), "ato-policy", "refund-abuse");
      assertFiltered(r, search(body.copy().put("filters",
          new JsonObject().put("date", new JsonObject().put("lt", "2022-01-01")))), "refund-abuse", "mule-2019");
      assertFiltered(r, search(body.copy().put("filters",
          new JsonObject().put("region", new JsonArray().add("US").add("APAC")))), "refund-abuse", "case-17");
      assertFiltered(r, search(body.copy().put("namespace", "cases")
          .put("filters", new JsonObject().put("year", 2024))), "case-17");
    }
  }

  private static void assertFiltered(Retriever r, JsonObject response, String... allowed) {
    Set<String> docs = docIds(response);
    if (r == Retriever.VECTOR) {
      assertEquals(Set.of(allowed), docs, r + ": " + response.getJsonObject("filters").encode());
    } else {
      assertTrue(Set.of(allowed).containsAll(docs), r + ": " + docs + " " + response.getJsonObject("filters").encode());
    }
  }

  private static Set<String> docIds(JsonObject response) {
    Set<String> out = new HashSet<>();
    results(response).forEach(r -> out.add(r.getString("documentId")));
    return out;
  }

  @Test
  void trigramFindsIdentifiers() throws Exception {
    JsonObject response = search(new JsonObject().put("query", "seller-88412").put("topK", 1)
        .put("retrievers", new JsonArray().add("trigram")));
    assertEquals("case-17", results(response).get(0).getString("documentId"));
    JsonObject hybrid = search(new JsonObject().put("query", "jane.roe@fastmail-pay.io").put("topK", 2));
    JsonObject top = results(hybrid).get(0);
    assertEquals("case-17", top.getString("documentId"));
    assertEquals(1, top.getJsonObject("retrievers").getJsonObject("trigram").getInteger("rank"));
  }

  @Test
  void selfQueryFiltersFromTheQueryText() throws Exception {
    JsonObject response = search("namespace:cases storefronts sharing a payout account");
    assertEquals("storefronts sharing a payout account", response.getString("cleanedQuery"));
    JsonObject filters = response.getJsonObject("filters");
    assertEquals("cases", filters.getString("namespace"));
    JsonObject inferred = filters.getJsonArray("fromQuery").getJsonObject(0);
    assertEquals("namespace:cases", inferred.getString("phrase"));
    assertTrue(inferred.getBoolean("applied"));
    assertTrue(docIds(response).contains("case-17"));
    results(response).forEach(r -> assertEquals("cases", r.getString("namespace")));

    response = search("category:pattern bank transfers since 2020");
    assertEquals("bank transfers", response.getString("cleanedQuery"));
    assertEquals(new JsonArray()
            .add(new JsonObject().put("key", "category").put("op", "eq").put("value", "pattern"))
            .add(new JsonObject().put("key", "date").put("op", "gte").put("value", "2020-01-01")),
        response.getJsonObject("filters").getJsonArray("conditions"));
    assertEquals(Set.of("refund-abuse"), docIds(response), "the 2019 mule pattern is before the range");

    // explicit filters win over inferred ones on the same key
    response = search(new JsonObject().put("query", "category:pattern account takeover")
        .put("filters", new JsonObject().put("category", "policy")));
    assertEquals(Set.of("ato-policy"), docIds(response));
    JsonObject lost = response.getJsonObject("filters").getJsonArray("fromQuery").getJsonObject(0);
    assertEquals("category", lost.getString("key"));
    assertFalse(lost.getBoolean("applied"));

    // filters read from the query that match nothing are dropped, and the query is searched as written
    response = search("money mules forwarding stolen funds in 1999");
    assertTrue(response.getJsonObject("filters").getBoolean("relaxed"));
    assertEquals("money mules forwarding stolen funds in 1999", response.getString("cleanedQuery"));
    assertEquals(new JsonArray(), response.getJsonObject("filters").getJsonArray("conditions"));
    assertFalse(response.getJsonObject("filters").getJsonArray("fromQuery").getJsonObject(0).getBoolean("applied"));
    assertEquals("mule-2019", results(response).get(0).getString("documentId"));
    // but explicit filters that match nothing give no results
    response = search(new JsonObject().put("query", "money mules forwarding stolen funds")
        .put("filters", new JsonObject().put("year", 1999)));
    assertEquals(0, response.getJsonArray("results").size());
    assertFalse(response.getJsonObject("filters").getBoolean("relaxed"));

    // selfQuery: false searches the text as it is
    response = search(new JsonObject().put("query", "namespace:cases storefronts").put("selfQuery", false));
    assertNull(response.getJsonObject("filters").getString("namespace"));
    assertEquals("namespace:cases storefronts", response.getString("cleanedQuery"));
  }

  /**
   * A date read from the query, on a date field that no document has ({@code published}), can match nothing: the
   * retriever goes straight to the relaxed search (each leg runs once, without the condition) instead of first
   * running a search that must come back empty; a request's own filter on such a field gets no result without a
   * search. On a field that documents have ({@code date}) but no date in
   * range, the first search runs with the condition and comes back empty, then the relaxed one. The legs are
   * counted on the real store, through a proxy that records each call and passes it on.
   */
  @Test
  void aFilterFromTheQueryOnAFieldNoDocumentHasSkipsTheSearchThatMustComeBackEmpty() throws Exception {
    List<SearchFilter> legFilters = new CopyOnWriteArrayList<>();
    KnowledgeStore store = services.knowledge();
    KnowledgeStore recording = (KnowledgeStore) Proxy.newProxyInstance(KnowledgeStore.class.getClassLoader(),
        new Class<?>[] {KnowledgeStore.class}, (proxy, method, args) -> {
          if (method.getName().endsWith("Search")) {
            legFilters.add((SearchFilter) args[2]);
          }
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    String query = "money mules forwarding stolen funds in 1999";
    RetrievalConf retrieval = conf.retrieval();
    SearchRequest request = new SearchRequest(query, 3, null, List.of(), List.of(Retriever.VECTOR, Retriever.KEYWORD),
        FusionMode.parse(retrieval.fusion()), Expansion.NONE, false, true);

    HybridRetriever noSuchField = new HybridRetriever(recording, services.embedder(), retrieval,
        new RuleBasedSelfQuery(retrieval.selfQueryKeys(), "published"));
    SearchResponse skipped = await(noSuchField.search(request));
    assertTrue(skipped.filters().relaxed());
    assertEquals(query, skipped.cleanedQuery());
    assertFalse(skipped.filters().fromQuery().get(0).applied());
    assertEquals("published", skipped.filters().fromQuery().get(0).key());
    assertEquals("mule-2019", skipped.results().get(0).documentId());
    assertEquals(2, legFilters.size(), "one vector and one keyword search: " + legFilters);
    legFilters.forEach(f -> assertTrue(f.conditions().isEmpty(), f.toString()));

    // the same again: whether the field exists is known now (asked once per knowledge change)
    legFilters.clear();
    assertTrue(await(noSuchField.search(request)).filters().relaxed());
    assertEquals(2, legFilters.size());

    // a filter of the request itself on a field no document has: no result, and no search
    legFilters.clear();
    SearchRequest explicit = new SearchRequest("money mules", 3, null,
        List.of(new MetadataCondition("published", MetadataCondition.Op.EQ, List.of("1999-05-01"))),
        List.of(Retriever.VECTOR, Retriever.KEYWORD), FusionMode.parse(retrieval.fusion()), Expansion.NONE, false,
        false);
    SearchResponse none = await(noSuchField.search(explicit));
    assertEquals(List.of(), none.results());
    assertFalse(none.filters().relaxed());
    assertEquals(List.of(), legFilters);

    // a document with the field arrives: after the change the filter applies again
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("mule-1999", "default", "Mule recruiting, 1999",
        new JsonObject().put("published", "1999-05-01"), List.of("Money mules were recruited to forward stolen funds.")));
    try {
      noSuchField.knowledgeChanged();
      legFilters.clear();
      SearchResponse filtered = await(noSuchField.search(request));
      assertFalse(filtered.filters().relaxed());
      assertEquals(List.of("mule-1999"), filtered.results().stream().map(SearchResult::documentId).distinct().toList());
      assertEquals("published", legFilters.get(0).conditions().get(0).key());
    } finally {
      await(store.delete("mule-1999"));
      vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", "default")
          .put("documentId", "mule-1999").put("change", "delete"));
    }

    // a store that cannot answer whether the field exists: the search runs as without the check
    KnowledgeStore failing = (KnowledgeStore) Proxy.newProxyInstance(KnowledgeStore.class.getClassLoader(),
        new Class<?>[] {KnowledgeStore.class}, (proxy, method, args) -> method.getName().equals("hasMetadataKey")
            ? Future.failedFuture(new IllegalStateException("metadata keys unavailable"))
            : method.invoke(recording, args));
    legFilters.clear();
    SearchResponse unchecked = await(new HybridRetriever(failing, services.embedder(), retrieval,
        new RuleBasedSelfQuery(retrieval.selfQueryKeys(), "published")).search(request));
    assertTrue(unchecked.filters().relaxed());
    assertEquals(4, legFilters.size(), "the filtered search, then the relaxed one: " + legFilters);

    legFilters.clear();
    HybridRetriever dates = new HybridRetriever(recording, services.embedder(), retrieval,
        new RuleBasedSelfQuery(retrieval.selfQueryKeys(), "date"));
    SearchResponse relaxed = await(dates.search(request));
    assertTrue(relaxed.filters().relaxed());
    assertEquals(skipped.results().stream().map(r -> r.documentId() + "#" + r.chunkIndex()).toList(),
        relaxed.results().stream().map(r -> r.documentId() + "#" + r.chunkIndex()).toList(),
        "the same answer either way");
    assertEquals(4, legFilters.size(), "the filtered search, then the relaxed one: " + legFilters);
    assertEquals("date", legFilters.get(0).conditions().get(0).key());
    assertTrue(legFilters.get(3).conditions().isEmpty());
  }

  @Test
  void expansionToParentAndNeighbours() throws Exception {
    JsonObject body = new JsonObject().put("query", "step-up authentication after a password reset and new device login")
        .put("topK", 1);
    JsonObject hit = results(search(body.copy().put("expand", "parent"))).get(0);
    assertEquals("ato-policy", hit.getString("documentId"));
    assertEquals(1, hit.getInteger("chunkIndex"));
    JsonObject parent = hit.getJsonObject("parent");
    assertEquals("ato-policy", parent.getString("id"));
    assertEquals("Account takeover policy", parent.getString("title"));
    assertTrue(parent.getString("text").contains(hit.getString("text")));
    assertTrue(parent.getString("text").contains("mailinator.com"));
    assertNull(hit.getJsonArray("neighbours"));

    hit = results(search(body.copy().put("expand", "neighbours"))).get(0);
    JsonArray neighbours = hit.getJsonArray("neighbours");
    assertEquals(List.of(0, 2), neighbours.stream().map(o -> ((JsonObject) o).getInteger("index")).toList());
    assertTrue(neighbours.getJsonObject(0).getString("text").startsWith("Account takeover happens"));
    assertNull(hit.getJsonObject("parent"));

    // the first chunk has only a following neighbour
    hit = results(search(new JsonObject().put("query", "fraudster logs in with stolen credentials changes payout")
        .put("topK", 1).put("expand", "neighbours"))).get(0);
    assertEquals(0, hit.getInteger("chunkIndex"));
    assertEquals(List.of(1), hit.getJsonArray("neighbours").stream().map(o -> ((JsonObject) o).getInteger("index")).toList());
  }

  @Test
  void mmrPushesNearDuplicatesDown() throws Exception {
    String text = "Promotion abuse: one person opens many accounts with throwaway emails to redeem a welcome "
        + "coupon again and again.";
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("promo-a", "promo", "Promotion abuse A",
        new JsonObject().put("category", "pattern"), List.of(text)));
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("promo-b", "promo", "Promotion abuse B",
        new JsonObject().put("category", "pattern"), List.of(text)));
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("promo-c", "promo", "Referral fraud",
        new JsonObject().put("category", "pattern"),
        List.of("Referral fraud: a ring refers its own fake accounts to collect referral bonuses for a coupon.")));
    JsonObject body = new JsonObject().put("query", "promotion abuse welcome coupon many accounts").put("topK", 2)
        .put("namespace", "promo");
    List<String> plain = results(search(body)).stream().map(r -> r.getString("documentId")).toList();
    assertEquals(Set.of("promo-a", "promo-b"), Set.copyOf(plain), "without MMR the two copies lead");
    List<String> diverse = results(search(body.copy().put("mmr", true))).stream()
        .map(r -> r.getString("documentId")).toList();
    assertEquals(2, diverse.size());
    assertEquals(plain.get(0), diverse.get(0), "MMR keeps the most relevant first");
    assertEquals("promo-c", diverse.get(1), "and replaces the copy with the different chunk");
  }

  @Test
  void collapseByDocumentKeepsEachDocumentsBestChunkOnly() throws Exception {
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("chargeback-guide", "collapse",
        "Chargeback disputes", new JsonObject().put("category", "guideline"), List.of(
            "Chargeback disputes: the seller answers a chargeback dispute with delivery evidence, tracking numbers "
                + "and signed receipts.",
            "Chargeback dispute evidence: upload the tracking number, the signed delivery receipt and photos of the "
                + "parcel for the chargeback dispute.",
            "Late chargeback disputes are lost: the evidence for a chargeback dispute must arrive within seven days.")));
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("digital-goods", "collapse",
        "Digital goods", new JsonObject().put("category", "guideline"), List.of(
            "For digital goods the seller proves delivery with server logs of the download; a chargeback is then "
                + "disputed with those logs.")));
    KnowledgeFixture.ingest(vertx, services, new KnowledgeFixture.Doc("shipping", "collapse",
        "Shipping times", new JsonObject().put("category", "guideline"), List.of(
            "Parcels ship within two working days; tracking numbers are mailed to the buyer.")));
    JsonObject body = new JsonObject().put("query", "chargeback dispute evidence tracking signed receipt")
        .put("topK", 2).put("namespace", "collapse");
    JsonObject plain = search(body);
    assertEquals(List.of("chargeback-guide", "chargeback-guide"),
        results(plain).stream().map(r -> r.getString("documentId")).toList(), "without collapse one guide fills the top 2");

    JsonObject collapsed = search(body.copy().put("collapse", "document"));
    assertFalse(collapsed.getBoolean("cached"), "a collapsed search is not the plain one's cache entry");
    List<JsonObject> hits = results(collapsed);
    assertEquals(List.of("chargeback-guide", "digital-goods"), hits.stream().map(r -> r.getString("documentId")).toList());
    assertEquals(results(plain).get(0).getInteger("chunkIndex"), hits.get(0).getInteger("chunkIndex"),
        "the document keeps its best-ranked chunk");
    assertEquals(results(plain).get(0).getDouble("score"), hits.get(0).getDouble("score"));
    // with room for every document, each appears once
    List<String> all = results(search(body.copy().put("collapse", "document").put("topK", 10))).stream()
        .map(r -> r.getString("documentId")).toList();
    assertEquals(all.size(), Set.copyOf(all).size(), "no document twice: " + all);
    assertTrue(all.containsAll(List.of("chargeback-guide", "digital-goods")), all.toString());
    assertEquals(2, HybridRetriever.candidates(SearchRequest.fromJson(body.copy().put("collapse", "document")
        .put("topK", 1), conf.retrieval(), 1000), 1), "collapse asks each retriever for 2 x topK");

    assertError(body.copy().put("collapse", "chunk"), 400, "invalid_field");
    assertError(body.copy().put("collapse", true), 400, "invalid_field");
  }

  @Test
  void cacheHitsAndInvalidationByNamespace() throws Exception {
    JsonObject inDefault = new JsonObject().put("query", "refund requests for items that never arrived")
        .put("namespace", "default").put("topK", 3);
    JsonObject everywhere = new JsonObject().put("query", "refund requests for items that never arrived").put("topK", 3);
    JsonObject first = search(inDefault);
    assertFalse(first.getBoolean("cached"));
    JsonObject second = search(inDefault.copy().put("query", "  refund requests for items  that never arrived "));
    assertTrue(second.getBoolean("cached"), "same normalized query and options");
    assertEquals(first.getJsonArray("results"), second.getJsonArray("results"));
    assertFalse(search(inDefault.copy().put("topK", 2)).getBoolean("cached"), "other options: another entry");
    search(everywhere);
    assertTrue(search(everywhere).getBoolean("cached"));

    // a change in another namespace (through the real ingestion API) keeps the default-namespace entry and
    // drops the unrestricted one
    ingestOverHttp(new JsonObject().put("id", "case-18").put("namespace", "cases").put("title", "Case 18")
        .put("metadata", new JsonObject().put("category", "case"))
        .put("text", "Case 18: a buyer requested refunds for items that never arrived on forty orders."));
    assertTrue(search(inDefault).getBoolean("cached"));
    JsonObject fresh = search(everywhere);
    assertFalse(fresh.getBoolean("cached"));
    assertTrue(docIds(fresh).contains("case-18"), "the new document is found at once");

    // an ingest in the namespace drops it
    ingestOverHttp(new JsonObject().put("id", "refund-2").put("title", "Refund abuse, again")
        .put("metadata", new JsonObject().put("category", "pattern"))
        .put("text", "Refund requests for items that never arrived, filed from many new accounts in one week."));
    JsonObject afterIngest = search(inDefault);
    assertFalse(afterIngest.getBoolean("cached"));
    assertTrue(docIds(afterIngest).contains("refund-2"));
    assertTrue(search(inDefault).getBoolean("cached"));

    // and so does a delete
    HttpResponse<Buffer> deleted = await(client.delete("/api/documents/refund-2").send());
    assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
    JsonObject afterDelete = search(inDefault);
    assertFalse(afterDelete.getBoolean("cached"));
    assertFalse(docIds(afterDelete).contains("refund-2"));
    assertNotEquals(afterIngest.getJsonArray("results"), afterDelete.getJsonArray("results"));
  }

  private void ingestOverHttp(JsonObject document) throws Exception {
    HttpResponse<Buffer> response = await(client.post("/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(document));
    assertEquals(201, response.statusCode(), response.bodyAsString());
    assertEquals("completed", response.bodyAsJsonObject().getString("status"), response.bodyAsString());
  }

  @Test
  void namespacesFollowIngestAndDelete() throws Exception {
    JsonObject inFresh = new JsonObject().put("query", "chargeback velocity on a new storefront").put("namespace", "fresh-ns");
    assertError(inFresh, 400, "unknown_namespace");
    assertError(inFresh, 400, "unknown_namespace"); // asked twice: the known namespaces are now held in memory

    ingestOverHttp(new JsonObject().put("id", "fresh-1").put("namespace", "fresh-ns").put("title", "Fresh storefront")
        .put("text", "A new storefront saw chargeback velocity triple in its first week of sales."));
    assertEquals(Set.of("fresh-1"), docIds(search(inFresh)), "the new namespace is known at once");

    HttpResponse<Buffer> deleted = await(client.delete("/api/documents/fresh-1").send());
    assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
    assertError(inFresh, 400, "unknown_namespace");
  }

  @Test
  void invalidRequestsAreRejected() throws Exception {
    assertError(new JsonObject(), 400, "missing_field");
    assertError(new JsonObject().put("query", " "), 400, "empty_field");
    assertError(new JsonObject().put("query", "x".repeat(2001)), 400, "field_too_long");
    assertError(new JsonObject().put("query", "q").put("topK", 0), 400, "invalid_field");
    assertError(new JsonObject().put("query", "q").put("topK", 101), 400, "invalid_field");
    assertError(new JsonObject().put("query", "q").put("retrievers", new JsonArray().add("bm25")), 400, "invalid_field");
    assertError(new JsonObject().put("query", "q").put("fusion", "max"), 400, "invalid_field");
    assertError(new JsonObject().put("query", "q").put("expand", "all"), 400, "invalid_field");
    assertError(new JsonObject().put("query", "q").put("filters",
        new JsonObject().put("year", new JsonObject().put("between", new JsonArray().add(1).add(2)))), 400, "invalid_filter");
    assertError(new JsonObject().put("query", "q").put("filters",
        new JsonObject().put("date", new JsonObject().put("gte", "soon"))), 400, "invalid_filter");
    assertError(new JsonObject().put("query", "q").put("namespace", "nowhere"), 400, "unknown_namespace");
    assertError(new JsonObject().put("query", "q").put("filters", new JsonObject().put("namespace", "nowhere")), 400,
        "unknown_namespace");

    HttpResponse<Buffer> notJson = await(client.post("/api/search").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer("{\"query\": ")));
    assertEquals(400, notJson.statusCode());
    assertEquals("invalid_json", notJson.bodyAsJsonObject().getString("code"));
    HttpResponse<Buffer> text = await(client.post("/api/search").putHeader("Content-Type", "text/plain")
        .sendBuffer(Buffer.buffer("account takeover")));
    assertEquals(415, text.statusCode());
    assertEquals("unsupported_media_type", text.bodyAsJsonObject().getString("code"));
  }
}
