package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static dev.argus.retrieval.KnowledgeFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Stop Vert.x, start a new one on the same data folder: the same query returns the same results. */
class SearchRestartTest {

  private static final List<JsonObject> QUERIES = List.of(
      new JsonObject().put("query", "stolen credentials account takeover").put("topK", 5),
      new JsonObject().put("query", "seller-88412 storefronts").put("topK", 3).put("expand", "neighbours"),
      new JsonObject().put("query", "bank transfers").put("fusion", "weighted")
          .put("filters", new JsonObject().put("category", "pattern")));

  @Test
  void sameResultsAfterRestart() throws Exception {
    Path dir = TestApp.tempDataDir();
    ArgusConfig conf = TestApp.config(dir);
    JsonArray before = new JsonArray();
    Vertx first = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(first, conf));
      KnowledgeFixture.ingestAll(first, app.main().services());
      for (JsonObject q : QUERIES) {
        before.add(search(first, app.port(), q));
      }
    } finally {
      await(first.close());
    }
    Vertx second = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(second, conf));
      for (int i = 0; i < QUERIES.size(); i++) {
        JsonObject after = search(second, app.port(), QUERIES.get(i));
        JsonArray expected = before.getJsonObject(i).getJsonArray("results");
        assertFalse(expected.isEmpty());
        assertEquals(expected.size(), after.getJsonArray("results").size());
        for (int j = 0; j < expected.size(); j++) {
          JsonObject e = expected.getJsonObject(j);
          JsonObject a = after.getJsonArray("results").getJsonObject(j);
          assertEquals(e.getString("documentId"), a.getString("documentId"));
          assertEquals(e.getInteger("chunkIndex"), a.getInteger("chunkIndex"));
          assertEquals(e.getString("text"), a.getString("text"));
          assertEquals(e.getDouble("score"), a.getDouble("score"), 1e-9);
          assertEquals(e.getJsonObject("retrievers").fieldNames(), a.getJsonObject("retrievers").fieldNames());
          assertEquals(e.getJsonArray("neighbours"), a.getJsonArray("neighbours"));
        }
      }
    } finally {
      await(second.close());
    }
  }

  private static JsonObject search(Vertx vertx, int port, JsonObject body) throws Exception {
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    var response = await(client.post("/api/search").sendJsonObject(body));
    assertEquals(200, response.statusCode(), response.bodyAsString());
    return response.bodyAsJsonObject();
  }
}
