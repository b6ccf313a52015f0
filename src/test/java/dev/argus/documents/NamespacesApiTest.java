package dev.argus.documents;

import dev.argus.config.ArgusConfig;
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

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code GET /api/namespaces} end to end (the whole service, real HTTP, real store): the namespaces that hold
 * documents with their counts, sorted by name, following ingestion and deletion.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NamespacesApiTest {

  private Vertx vertx;
  private WebClient client;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    TestApp app = await(TestApp.start(vertx, configure(TestApp.config(TestApp.tempDataDir()))));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  /** The service's configuration; a subclass runs the same tests on another store. */
  protected ArgusConfig configure(ArgusConfig conf) {
    return conf;
  }

  /** Called after the service has stopped. */
  protected void released() {
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
    released();
  }

  private JsonObject namespaces() {
    HttpResponse<Buffer> response = await(client.get("/api/namespaces").send());
    assertEquals(200, response.statusCode(), response.bodyAsString());
    assertEquals("application/json", response.getHeader("Content-Type").split(";")[0]);
    return response.bodyAsJsonObject();
  }

  private void ingest(String id, String namespace) {
    JsonObject doc = new JsonObject().put("id", id).put("title", "Document " + id)
        .put("text", "Text of document " + id + " about payout holds.");
    if (namespace != null) {
      doc.put("namespace", namespace);
    }
    HttpResponse<Buffer> response = await(client.post("/api/documents?wait=true").sendJsonObject(doc));
    assertEquals(201, response.statusCode(), response.bodyAsString());
  }

  private static JsonObject entry(String name, long documents) {
    return new JsonObject().put("name", name).put("documents", documents);
  }

  @Test
  void listsNamespacesWithTheirDocumentCountsAndFollowsChanges() {
    assertEquals(new JsonObject().put("namespaces", new JsonArray()).put("total", 0), namespaces(), "empty store");

    ingest("b1", "team-b");
    ingest("a1", "team-a");
    ingest("a2", "team-a");
    ingest("d1", null);
    assertEquals(new JsonObject().put("namespaces", new JsonArray().add(entry("default", 1)).add(entry("team-a", 2))
        .add(entry("team-b", 1))).put("total", 3), namespaces());

    assertEquals(200, await(client.delete("/api/documents/b1").send()).statusCode());
    assertEquals(new JsonArray().add(entry("default", 1)).add(entry("team-a", 2)),
        namespaces().getJsonArray("namespaces"), "an emptied namespace is no longer listed");
  }
}
