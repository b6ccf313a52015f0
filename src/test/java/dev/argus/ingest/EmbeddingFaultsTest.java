package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedding provider (a real HTTP server) starts failing in the middle of a job — and in the middle of a
 * document: 5xx, a hang past {@code embedding.timeoutMs}, or a garbage body. The documents embedded before it are
 * stored whole; the document whose first chunks were embedded and whose last were not leaves no trace; every failed
 * document is named in the job with the provider's failure as the reason. SQLite here; PostgreSQL in
 * {@link PgEmbeddingFaultsTest} (the write path differs).
 */
class EmbeddingFaultsTest {

  private Vertx vertx;
  private FakeEmbeddingServer embeddings;
  private TestApp app;
  private WebClient client;
  /** Requests answered normally before the provider breaks. */
  private final AtomicInteger answered = new AtomicInteger();
  private volatile Supplier<FakeReply> broken;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    embeddings.respondWith(r -> answered.incrementAndGet() <= 2 ? FakeReply.answer() : broken.get());
    // one sentence per chunk, six chunks per document, four chunks per embedding request (no retries, 1 s timeout)
    ArgusConfig conf = embeddings.configure(configure(TestApp.config(TestApp.tempDataDir())))
        .with("embedding", "batchSize", 4)
        .with("embedding", "timeoutMs", 1_000)
        .with("ingest", "embedBatchSize", 4)
        .with("ingest", "chunkTargetChars", 60)
        .with("ingest", "chunkMaxChars", 120)
        .with("ingest", "overlapSentences", 0);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  protected ArgusConfig configure(ArgusConfig base) {
    return base;
  }

  protected void released() {
  }

  @AfterEach
  void tearDown() {
    await(app.stop());
    await(vertx.close());
    released();
  }

  @ParameterizedTest
  @ValueSource(strings = {"5xx", "hang", "garbage"})
  void aProviderFailingMidJobKeepsTheDocumentsBeforeAndStoresNothingPartial(String mode) {
    broken = switch (mode) {
      case "5xx" -> () -> FakeReply.error(503);
      case "hang" -> () -> FakeReply.answer().delay(5_000); // past the 1 s timeout
      default -> () -> FakeReply.body("<html>502 Bad Gateway</html>");
    };
    JsonArray docs = new JsonArray();
    for (String id : List.of("a", "b", "c")) {
      docs.add(new JsonObject().put("id", "fault-" + id).put("title", "Fault " + id)
          .put("text", IngestAtomicityTest.sixSentences(id, -1)));
    }
    JsonObject job = await(client.post("/api/documents?wait=true").putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("documents", docs).toBuffer())).bodyAsJsonObject();

    // 18 chunks in requests of 4: #1 = a0-a3, #2 = a4-a5 + b0-b1 (both answered), #3 = b2-b5 breaks → a stored
    // (6 chunks), b failed with 2 of its 6 chunks embedded, c failed (every later request breaks too)
    assertEquals("completed", job.getString("status"), job.encode());
    assertEquals(1, job.getInteger("created"), job.encode());
    assertEquals(2, job.getInteger("failed"), job.encode());
    JsonArray outcomes = job.getJsonArray("documents");
    assertEquals("created", outcomes.getJsonObject(0).getString("outcome"));
    assertEquals(6, outcomes.getJsonObject(0).getInteger("chunks"));
    String expected = switch (mode) {
      case "5xx" -> "503";
      case "hang" -> "timed out after 1000 ms";
      default -> "is not a JSON object";
    };
    for (int i = 1; i <= 2; i++) {
      JsonObject failed = outcomes.getJsonObject(i);
      String error = failed.getString("error", "");
      assertEquals("failed", failed.getString("outcome"), failed.encode());
      assertTrue(error.startsWith("document '" + failed.getString("id") + "': embedding failed: "), error);
      assertTrue(error.contains(expected), mode + " must say why: " + error);
    }

    JsonObject a = await(client.get("/api/documents/fault-a").send()).bodyAsJsonObject();
    assertEquals(6, a.getJsonArray("chunks").size(), "the document before the failure is whole");
    assertEquals(404, await(client.get("/api/documents/fault-b").send()).statusCode(), "nothing of b");
    assertEquals(404, await(client.get("/api/documents/fault-c").send()).statusCode(), "nothing of c");
    assertEquals(1, await(client.get("/api/documents?limit=10").send()).bodyAsJsonObject().getInteger("total"));
  }
}
