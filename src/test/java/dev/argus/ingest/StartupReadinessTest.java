package dev.argus.ingest;

import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readiness reflects start-up loading: while the sample knowledge base is being ingested (the embedding provider
 * is slow here), {@code /api/health/ready} answers 503 and {@code /api/health} says {@code starting}, while
 * liveness answers 200; once ready, every sample document is stored.
 */
class StartupReadinessTest {

  @Test
  void notReadyUntilTheSampleKnowledgeBaseIsLoaded() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
      embeddings.delayEach(1_500);
      TestApp app = await(TestApp.start(vertx, embeddings.configure(TestApp.config(TestApp.tempDataDir()))
          .with("ingest", "loadSamples", true)));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      HttpResponse<Buffer> ready = await(client.get("/api/health/ready").send());
      assertEquals(503, ready.statusCode(), ready.bodyAsString());
      assertEquals("starting", ready.bodyAsJsonObject().getString("status"));
      assertEquals("sample knowledge base", ready.bodyAsJsonObject().getJsonArray("waitingFor").getString(0));
      assertEquals("not_ready", ready.bodyAsJsonObject().getString("code"));
      JsonObject health = await(client.get("/api/health").send()).bodyAsJsonObject();
      assertEquals("starting", health.getString("status"));
      assertEquals(false, health.getBoolean("ready"));
      assertEquals(200, await(client.get("/api/health/live").send()).statusCode());

      embeddings.delayEach(0);
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (await(client.get("/api/health/ready").send()).statusCode() != 200) {
        assertTrue(System.nanoTime() < deadline, "ready within two minutes");
        Thread.sleep(200);
      }
      long samples = SampleDocuments.load("samples", "default").size();
      JsonObject docs = await(client.get("/api/documents").send()).bodyAsJsonObject();
      assertEquals(samples, docs.getLong("total"), "ready means every sample document is there");
      assertEquals("ready", await(client.get("/api/health").send()).bodyAsJsonObject().getString("status"));
      await(app.stop());
    } finally {
      await(vertx.close());
    }
  }
}
