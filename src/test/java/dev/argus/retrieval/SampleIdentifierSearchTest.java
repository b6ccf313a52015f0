package dev.argus.retrieval;

import dev.argus.testing.SampleKnowledge;
import dev.argus.testing.TestApp;
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

import java.util.ArrayList;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exact identifier on the bundled sample knowledge base (the whole service, real embedder, real HTTP): the case
 * of seller {@code SLR-10472} ranks first for {@code SLR-10472}, although the case of {@code SLR-10588}, which
 * cites it in a short, identifier-dense chunk, ranks first in every single retriever's own list.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SampleIdentifierSearchTest {

  private static final String OWN_CASE = "case-slr-10472-synthetic-seller";
  private static final String CITING_CASE = "case-slr-10588-linked-payout-account";

  private Vertx vertx;
  private WebClient client;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    TestApp app = await(SampleKnowledge.start(vertx, SampleKnowledge.config(TestApp.tempDataDir())
        .with("retrieval", "cacheMaxEntries", 0)));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
  }

  private List<String> documents(JsonObject body) {
    HttpResponse<Buffer> response = await(client.post("/api/search").sendJsonObject(body.put("topK", 10)));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    List<String> ids = new ArrayList<>();
    for (Object o : response.bodyAsJsonObject().getJsonArray("results")) {
      ids.add(((JsonObject) o).getString("documentId"));
    }
    return ids;
  }

  private static void assertOwnCaseFirst(List<String> ids, String what) {
    assertEquals(OWN_CASE, ids.get(0), what + ": " + ids);
    int lastOwn = ids.lastIndexOf(OWN_CASE);
    int citing = ids.indexOf(CITING_CASE);
    assertTrue(citing < 0 || citing > lastOwn, what + ": every chunk of the seller's own case comes before the"
        + " case that only cites it: " + ids);
  }

  @Test
  void theCaseOfTheIdentifierRanksAboveACaseThatMentionsIt() {
    assertOwnCaseFirst(documents(new JsonObject().put("query", "SLR-10472")), "default retrievers");
    assertOwnCaseFirst(documents(new JsonObject().put("query", "slr-10472").put("fusion", "rrf")), "rrf");
    assertOwnCaseFirst(documents(new JsonObject().put("query", "what happened with seller SLR-10472?")
        .put("retrievers", new JsonArray().add("vector").add("keyword").add("trigram"))), "a question, all three");
    assertEquals(CITING_CASE, documents(new JsonObject().put("query", "SLR-10588")).get(0), "the other way round");
  }

  @Test
  void aSingleRetrieverKeepsItsOwnRanking() {
    // The cause, kept visible: each retriever on its own ranks the citing case's chunk first (its text is short and
    // full of the identifier's terms), and a one-retriever search returns that ranking unchanged.
    for (String leg : List.of("keyword", "trigram")) {
      assertEquals(CITING_CASE, documents(new JsonObject().put("query", "SLR-10472")
          .put("retrievers", new JsonArray().add(leg))).get(0), leg);
    }
  }
}
