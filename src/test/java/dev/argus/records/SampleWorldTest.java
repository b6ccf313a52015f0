package dev.argus.records;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** First start loads a generated world into an empty records store; a later start leaves a non-empty store alone. */
class SampleWorldTest {

  @Test
  void loadsOnceIntoAnEmptyStore() throws Exception {
    Vertx vertx = Vertx.vertx();
    Path dir = TestApp.tempDataDir();
    try {
      JsonObject first = sellerAfterStart(vertx, dir, 11);
      assertEquals("S-000001", first.getString("id"));
      JsonObject again = sellerAfterStart(vertx, dir, 99);
      assertEquals(first, again, "a store that holds records is not loaded again (another seed would change S-000001)");
    } finally {
      await(vertx.close());
    }
  }

  /** Readiness waits for the sample world: the first time {@code /api/health/ready} answers 200, every seller is there. */
  @Test
  void readyOnlyOnceTheWorldIsLoaded() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("records", "sampleWorldSellers", 200)
          .with("records", "caseDocuments", false);
      TestApp app = await(TestApp.start(vertx, conf));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      try {
        int status = 0;
        for (int i = 0; i < 600 && status != 200; i++) {
          status = await(client.get("/api/health/ready").send()).statusCode();
          if (status != 200) {
            Thread.sleep(100);
          }
        }
        assertEquals(200, status, "ready within a minute");
        JsonObject page = await(client.get("/api/records?kind=seller&limit=1000").send()).bodyAsJsonObject();
        assertEquals(200, page.getJsonArray("records").size(), "ready means the whole sample world is stored");
      } finally {
        client.close();
        await(app.stop());
      }
    } finally {
      await(vertx.close());
    }
  }

  private static JsonObject sellerAfterStart(Vertx vertx, Path dir, long seed) throws Exception {
    ArgusConfig conf = TestApp.config(dir).with("records", "sampleWorldSellers", 60)
        .with("records", "sampleWorldSeed", seed).with("records", "caseDocuments", false);
    TestApp app = await(TestApp.start(vertx, conf));
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(app.port()));
    try {
      for (int i = 0; i < 240; i++) {
        JsonObject page = await(client.get("/api/records?kind=seller&limit=1000").send()).bodyAsJsonObject();
        if (page.getJsonArray("records").size() == 60) {
          return await(client.get("/api/records/S-000001").send()).bodyAsJsonObject();
        }
        Thread.sleep(500);
      }
      throw new AssertionError("the sample world did not load");
    } finally {
      client.close();
      await(app.stop());
    }
  }
}
