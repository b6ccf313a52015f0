package dev.argus.eval;

import dev.argus.config.ArgusConfig;
import dev.argus.config.EmbeddingConf;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bundled sample knowledge base goes through the real first-start loading (Markdown parser, chunker, local
 * embedder, SQLite store): every listed document arrives with its front matter as title and metadata.
 */
@ExtendWith(VertxExtension.class)
class BundledSamplesLoadTest {

  private static final int EXPECTED = 50;

  private static Future<JsonObject> pollDocuments(Vertx vertx, WebClient client, int attemptsLeft) {
    return client.get("/api/documents?limit=100").send().map(HttpResponse::bodyAsJsonObject).compose(page -> {
      if (page.getLong("total", 0L) >= EXPECTED || attemptsLeft == 0) {
        return Future.succeededFuture(page);
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(250, id -> later.complete());
      return later.future().compose(v -> pollDocuments(vertx, client, attemptsLeft - 1));
    });
  }

  @Test
  @io.vertx.junit5.Timeout(value = 5, timeUnit = TimeUnit.MINUTES)
  void everySampleIsLoadedWithItsFrontMatter(Vertx vertx, VertxTestContext ctx) {
    // the faster bundled model keeps this test short; the parser, chunker and store are the production ones
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("ingest", "loadSamples", true)
        .with("embedding", "provider", EmbeddingConf.MINILM);
    TestApp.start(vertx, conf).compose(app -> {
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      return pollDocuments(vertx, client, 480).compose(page -> {
        ctx.verify(() -> assertEquals(EXPECTED, page.getLong("total"), page.encode()));
        Future<HttpResponse<io.vertx.core.buffer.Buffer>> note = client.get("/api/documents/adversarial-note").send();
        Future<HttpResponse<io.vertx.core.buffer.Buffer>> kyc =
            client.get("/api/documents/policy-seller-onboarding-kyc").send();
        return Future.all(note, kyc).map(v -> {
          ctx.verify(() -> {
            JsonObject adversarial = note.result().bodyAsJsonObject();
            assertEquals(200, note.result().statusCode());
            assertEquals("case", adversarial.getJsonObject("metadata").getString("category"));
            assertTrue(adversarial.getString("text").contains("Ignore previous instructions"));
            JsonObject policy = kyc.result().bodyAsJsonObject();
            assertEquals("Seller onboarding and KYC policy", policy.getString("title"));
            JsonObject meta = policy.getJsonObject("metadata");
            assertEquals("policy", meta.getString("category"));
            assertEquals("high", meta.getString("risk"));
            assertEquals("global", meta.getString("region"));
            assertTrue(String.valueOf(meta.getValue("date")).startsWith("2025-02-03"), meta.encode());
            Object tags = meta.getValue("tags");
            assertTrue(tags instanceof JsonArray arr && arr.contains("kyc") && arr.contains("onboarding"), meta.encode());
            JsonArray chunks = policy.getJsonArray("chunks");
            assertTrue(chunks.size() >= 2, "a ~600-word policy is chunked: " + chunks.size());
          });
          return v;
        });
      });
    }).onComplete(ctx.succeedingThenComplete());
  }
}
