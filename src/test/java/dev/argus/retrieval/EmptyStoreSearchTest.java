package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A search on a store that holds nothing yet, and on one that has just received its first document (before any
 * planner statistics exist on PostgreSQL): each leg alone and all three together answer 200 — empty results at
 * first, the document right after its ingestion. On PostgreSQL every search on a fresh database once failed with
 * 500 (a NULL mean chunk length in the keyword leg's BM25). Both stores, over HTTP.
 */
class EmptyStoreSearchTest {

  private static final List<String> LEGS = List.of("vector", "keyword", "trigram");

  private Vertx vertx;
  private WebClient client;
  private PgTestDatabase pg;

  /** The whole service on a new, empty store of {@code type}: a temporary SQLite file or a new PostgreSQL database. */
  private void start(String type) {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    if (type.equals("postgres")) {
      pg = PgTestDatabase.create();
      conf = pg.serve(conf);
    }
    TestApp app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterEach
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
    if (pg != null) {
      pg.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgres"})
  void aFreshStoreAnswersEveryLegWithNoResultsThenFindsItsFirstDocumentAtOnce(String type) {
    start(type);
    String query = "chargeback dispute window SLR-10472";
    for (String leg : LEGS) {
      assertEquals(List.of(), documentIds(search(query, new JsonArray().add(leg))), leg);
    }
    assertEquals(List.of(), documentIds(search(query, new JsonArray(LEGS))));
    assertEquals(List.of(), documentIds(search(query, null)));

    HttpResponse<Buffer> ingested = await(client.post("/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(new JsonObject().put("id", "first-doc").put("title", "Chargeback dispute window")
            .put("text", "Seller SLR-10472 has 30 days to answer a chargeback dispute before it is decided.")));
    assertEquals(201, ingested.statusCode(), ingested.bodyAsString());

    for (String leg : LEGS) {
      assertEquals(List.of("first-doc"), documentIds(search(query, new JsonArray().add(leg))), leg);
    }
    assertEquals(List.of("first-doc"), documentIds(search(query, null)));
  }

  private JsonObject search(String query, JsonArray retrievers) {
    JsonObject body = new JsonObject().put("query", query);
    if (retrievers != null) {
      body.put("retrievers", retrievers);
    }
    HttpResponse<Buffer> response = await(client.post("/api/search").sendJsonObject(body));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }

  private static List<String> documentIds(JsonObject response) {
    JsonArray results = response.getJsonArray("results");
    assertTrue(results != null, response.encode());
    return results.stream().map(o -> ((JsonObject) o).getString("documentId")).distinct().toList();
  }
}
