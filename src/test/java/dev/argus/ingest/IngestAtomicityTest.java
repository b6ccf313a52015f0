package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeEmbeddingServer;
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

import static dev.argus.ingest.IngestTestSupport.assertError;
import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure in the middle of a document's chunks (the embedding provider, a real HTTP server, rejects the second
 * batch) leaves no trace of the document, keeps its previous version intact, and the error names it.
 */
class IngestAtomicityTest {

  private static Vertx vertx;
  private static FakeEmbeddingServer embeddings;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    // one sentence per chunk (target 60, sentences ~50 chars, no overlap); two chunks per embedding request
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir()))
        .with("embedding", "batchSize", 2)
        .with("ingest", "embedBatchSize", 2)
        .with("ingest", "chunkTargetChars", 60)
        .with("ingest", "chunkMaxChars", 120)
        .with("ingest", "overlapSentences", 0);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  /** Six sentences, one chunk each; the one at {@code poisonAt} (or none for -1) carries the poison marker. */
  static String sixSentences(String word, int poisonAt) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      sb.append("Sentence ").append(i).append(" about ").append(word)
          .append(i == poisonAt ? " " + FakeEmbeddingServer.POISON : " refund abuse patterns").append(". ");
    }
    return sb.toString().strip();
  }

  private static HttpResponse<Buffer> post(JsonObject body) {
    return await(client.post("/api/documents").putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()));
  }

  private static long total(String ns) {
    return await(client.get("/api/documents?namespace=" + ns).send()).bodyAsJsonObject().getLong("total");
  }

  @Test
  void failureInTheSecondEmbeddingBatchStoresNothingOfTheDocument() {
    int requestsBefore = embeddings.requestCount();
    HttpResponse<Buffer> r = post(new JsonObject().put("id", "atomic-1").put("title", "Atomic").put("namespace", "t-atomic")
        .put("text", sixSentences("atomicity", 2)));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals("failed", job.getString("status"));
    assertEquals(1, job.getInteger("failed"));
    JsonObject outcome = job.getJsonArray("documents").getJsonObject(0);
    assertEquals("atomic-1", outcome.getString("id"));
    assertEquals("failed", outcome.getString("outcome"));
    String error = outcome.getString("error");
    assertTrue(error.startsWith("document 'atomic-1': embedding failed"), error);
    assertTrue(error.contains("400") || error.contains("poisoned"), "the reason is given: " + error);
    // the first batch (chunks 0 and 1) was embedded before the second (chunks 2 and 3) failed: a mid-document failure
    assertEquals(2, embeddings.requestCount() - requestsBefore);
    assertTrue(embeddings.texts().stream().anyMatch(t -> t.contains("Sentence 1 about atomicity")));
    assertError(await(client.get("/api/documents/atomic-1").send()), 404, "unknown_document", "atomic-1");
    assertEquals(0, total("t-atomic"));
  }

  @Test
  void failedReplacementKeepsThePreviousVersionWhole() {
    JsonObject v1 = new JsonObject().put("id", "atomic-2").put("title", "Versioned").put("namespace", "t-atomic2")
        .put("text", sixSentences("versionone", -1));
    assertEquals("created", post(v1).bodyAsJsonObject().getJsonArray("documents").getJsonObject(0).getString("outcome"));
    JsonObject before = await(client.get("/api/documents/atomic-2").send()).bodyAsJsonObject();
    assertEquals(6, before.getJsonArray("chunks").size());

    JsonObject job = post(v1.copy().put("text", sixSentences("versiontwo", 3))).bodyAsJsonObject();
    assertEquals("failed", job.getJsonArray("documents").getJsonObject(0).getString("outcome"));
    JsonObject after = await(client.get("/api/documents/atomic-2").send()).bodyAsJsonObject();
    assertEquals(before.getString("text"), after.getString("text"));
    assertEquals(before.getString("contentHash"), after.getString("contentHash"));
    assertEquals(before.getJsonArray("chunks"), after.getJsonArray("chunks"));
    for (Object c : after.getJsonArray("chunks")) {
      assertFalse(((JsonObject) c).getString("text").contains("versiontwo"));
    }
  }

  @Test
  void oneBadDocumentDoesNotFailItsNeighboursInASharedBatch() {
    // chunks: a0 a1 | a2 b0 | b1 ...: the poisoned a2 shares a request with b0; b is retried on its own
    String a = sixSentences("alpha", 2);
    JsonArray docs = new JsonArray()
        .add(new JsonObject().put("id", "mix-a").put("title", "A").put("text", a.substring(0, a.indexOf("Sentence 3"))))
        .add(new JsonObject().put("id", "mix-b").put("title", "B").put("text", sixSentences("bravo", -1)));
    JsonObject job = post(new JsonObject().put("documents", docs).put("namespace", "t-mix")).bodyAsJsonObject();
    assertEquals("failed", job.getJsonArray("documents").getJsonObject(0).getString("outcome"), job.encode());
    assertEquals("created", job.getJsonArray("documents").getJsonObject(1).getString("outcome"), job.encode());
    assertEquals("completed", job.getString("status"), "a job with some successes completes");
    assertEquals(6, await(client.get("/api/documents/mix-b").send()).bodyAsJsonObject().getJsonArray("chunks").size());
    assertEquals(404, await(client.get("/api/documents/mix-a").send()).statusCode());
  }
}
