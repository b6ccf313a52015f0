package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** First start on an empty store loads the sample knowledge base (a two-file test fixture); later starts do not. */
class SampleLoadingTest {

  private static Future<JsonObject> pollDocuments(Vertx vertx, WebClient client, long expected, int attemptsLeft) {
    return client.get("/api/documents?limit=50").send().map(HttpResponse::bodyAsJsonObject).compose(page -> {
      if (page.getLong("total") >= expected || attemptsLeft == 0) {
        return Future.succeededFuture(page);
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(100, id -> later.complete());
      return later.future().compose(v -> pollDocuments(vertx, client, expected, attemptsLeft - 1));
    });
  }

  @Test
  void samplesAreLoadedOnFirstStartOnly() {
    Vertx vertx = Vertx.vertx();
    try {
      FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
      Path data = TestApp.tempDataDir();
      ArgusConfig conf = embeddings.configure(TestApp.config(data))
          .with("ingest", "loadSamples", true)
          .with("ingest", "samplesPath", "ingest-test-samples");
      TestApp app = await(TestApp.start(vertx, conf));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      JsonObject page = await(pollDocuments(vertx, client, 2, 200));
      assertEquals(2, page.getLong("total"), page.encode());
      JsonObject policy = await(client.get("/api/documents/sample-onboarding-policy").send()).bodyAsJsonObject();
      assertEquals("Sample onboarding policy", policy.getString("title"));
      assertEquals("default", policy.getString("namespace"));
      assertEquals(new JsonArray().add("kyc").add("onboarding"), policy.getJsonObject("metadata").getJsonArray("tags"));
      assertEquals("sample-policy.md", policy.getString("source"), "the file name is the source");
      JsonObject mule = await(client.get("/api/documents/sample-case-mule").send()).bodyAsJsonObject();
      assertEquals("cases", mule.getString("namespace"));
      assertEquals(2023, mule.getJsonObject("metadata").getInteger("year"));
      assertEquals(200, await(client.delete("/api/documents/sample-case-mule").send()).statusCode());
      await(app.stop());

      TestApp again = await(TestApp.start(vertx, conf));
      WebClient client2 = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(again.port()));
      // a job submitted after start finishes after any job started at start would have been submitted
      HttpResponse<Buffer> marker = await(client2.post("/api/documents?wait=true").putHeader("Content-Type",
          "application/json").sendBuffer(new JsonObject().put("id", "marker").put("title", "Marker")
          .put("text", "Marker document.").toBuffer()));
      assertEquals(201, marker.statusCode());
      JsonObject after = await(client2.get("/api/documents?limit=50").send()).bodyAsJsonObject();
      assertEquals(2, after.getLong("total"), "the store was not empty: no samples again: " + after.encode());
      assertEquals(404, await(client2.get("/api/documents/sample-case-mule").send()).statusCode());
      await(again.stop());
    } finally {
      await(vertx.close());
    }
  }
}
