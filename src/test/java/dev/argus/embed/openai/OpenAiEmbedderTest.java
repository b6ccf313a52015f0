package dev.argus.embed.openai;

import dev.argus.config.EmbeddingConf;
import dev.argus.embed.Embedder;
import dev.argus.embed.EmbeddingException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.FakeHttpServer;
import dev.argus.testing.FakeReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenAI-compatible embedder against a real HTTP server ({@link FakeEmbeddingServer}) speaking /v1/embeddings. */
class OpenAiEmbedderTest {

  private static final String KEY = "sk-test-secret-123";

  private Vertx vertx;
  private FakeEmbeddingServer server;

  @BeforeEach
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = await(FakeEmbeddingServer.start(vertx));
  }

  @AfterEach
  void stop() throws Exception {
    await(server.close());
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private EmbeddingConf conf(String baseUrl, int batchSize, int dimension, long timeoutMs, int maxRetries) {
    return new EmbeddingConf(EmbeddingConf.OPENAI, 1, batchSize, baseUrl, "test-embed", KEY, dimension, timeoutMs,
        maxRetries, 1, false, false);
  }

  private EmbeddingConf conf(int batchSize, int dimension, long timeoutMs, int maxRetries) {
    return conf(server.baseUrl() + "/", batchSize, dimension, timeoutMs, maxRetries);
  }

  private Embedder connect(EmbeddingConf conf) throws Exception {
    return await(OpenAiEmbedder.connect(vertx, conf, 20));
  }

  /** A response with the given vectors, listed in reverse index order (clients must sort by index). */
  private static FakeReply embeddings(float[]... vectors) {
    JsonArray data = new JsonArray();
    for (int i = vectors.length - 1; i >= 0; i--) {
      JsonArray emb = new JsonArray();
      for (float f : vectors[i]) {
        emb.add(f);
      }
      data.add(new JsonObject().put("object", "embedding").put("index", i).put("embedding", emb));
    }
    return FakeReply.body(new JsonObject().put("object", "list").put("model", "test-embed").put("data", data).encode());
  }

  @Test
  void embedsSortsByIndexNormalizesAndSendsTheKeyAsBearer() throws Exception {
    server.enqueue(embeddings(new float[] {3, 4, 0}, new float[] {0, 0, 2}));
    Embedder e = connect(conf(16, 3, 5_000, 0));
    List<float[]> vectors = await(e.embedPassages(List.of("alpha", "beta")));
    assertArrayEquals(new float[] {0.6f, 0.8f, 0f}, vectors.get(0), 1e-6f);
    assertArrayEquals(new float[] {0f, 0f, 1f}, vectors.get(1), 1e-6f);
    assertEquals(3, e.dimension());
    assertEquals("test-embed", e.modelName());

    FakeHttpServer.Recorded req = server.requests().get(0);
    assertEquals("/v1/embeddings", req.path());
    assertEquals("Bearer " + KEY, req.header("Authorization"));
    JsonObject body = req.body();
    assertEquals("test-embed", body.getString("model"));
    assertEquals(new JsonArray().add("alpha").add("beta"), body.getJsonArray("input"));
    assertFalse(e.toString().contains(KEY), "toString must redact the key");
    await(e.close());
  }

  @Test
  void baseUrlEndingInV1IsNotDoubled() throws Exception {
    assertEquals("http://h/v1/embeddings", OpenAiEmbedder.endpoint("http://h/v1/"));
    assertEquals("http://h/v1/embeddings", OpenAiEmbedder.endpoint("http://h"));
    assertEquals("http://h/api/v1/embeddings", OpenAiEmbedder.endpoint("http://h/api/v1"));
    server.enqueue(embeddings(new float[] {1, 0}));
    Embedder e = connect(conf(server.baseUrl() + "/v1", 16, 2, 5_000, 0));
    await(e.embedQuery("q"));
    assertEquals("/v1/embeddings", server.requests().get(0).path());
  }

  @Test
  void dimensionIsLearnedByTheStartupProbe() throws Exception {
    server.enqueue(embeddings(new float[] {1, 2, 3, 4}));
    Embedder e = connect(conf(16, 0, 5_000, 0));
    assertEquals(4, e.dimension());
    JsonObject probe = server.requests().get(0).body();
    assertEquals(new JsonArray().add(OpenAiEmbedder.PROBE_TEXT), probe.getJsonArray("input"));
    // Later responses must keep that dimension.
    server.enqueue(embeddings(new float[] {1, 2, 3}));
    Throwable err = failure(e.embedQuery("x"));
    assertTrue(err.getMessage().contains("dimension 3, expected 4"), err.getMessage());
  }

  @Test
  void failedProbeStopsStartupWithAClearMessage() {
    server.enqueue(FakeReply.error(401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}"));
    Throwable err = failure(OpenAiEmbedder.connect(vertx, conf(16, 0, 5_000, 3), 20));
    assertTrue(err.getMessage().contains("probe failed"), err.getMessage());
    assertTrue(err.getMessage().contains("HTTP 401"), err.getMessage());
    assertFalse(err.getMessage().contains(KEY));
    assertEquals(1, server.requestCount(), "401 is not retried");
  }

  @Test
  void splitsIntoBatchesAndKeepsTheOrder() throws Exception {
    // Each input "tN" gets the vector (N, 1) so the order of the results can be checked.
    List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.respondWith(request -> {
      JsonArray input = request.body().getJsonArray("input");
      sizes.add(input.size());
      float[][] vectors = new float[input.size()][];
      for (int i = 0; i < input.size(); i++) {
        vectors[i] = new float[] {Integer.parseInt(input.getString(i).substring(1)), 1};
      }
      return embeddings(vectors);
    });
    Embedder e = connect(conf(2, 2, 5_000, 0));
    List<String> texts = List.of("t1", "t2", "t3", "t4", "t5");
    List<float[]> vectors = await(e.embedPassages(texts));
    assertEquals(5, vectors.size());
    for (int i = 0; i < 5; i++) {
      assertEquals(i + 1, vectors.get(i)[0] / vectors.get(i)[1], 1e-4, "vector " + i);
    }
    assertEquals(List.of(2, 2, 1), sizes);
    assertEquals(3, server.requestCount());
  }

  @Test
  void retriesA429AfterTheServersRetryAfter() throws Exception {
    server.enqueue(FakeReply.error(429, "{\"error\":\"rate limited\"}").header("Retry-After", "1"));
    server.enqueue(embeddings(new float[] {1, 0}));
    Embedder e = connect(conf(16, 2, 5_000, 3));
    long start = System.nanoTime();
    float[] v = await(e.embedQuery("q"));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertArrayEquals(new float[] {1, 0}, v, 1e-6f);
    assertEquals(2, server.requestCount());
    assertTrue(elapsedMs >= 950, "waited only " + elapsedMs + " ms despite Retry-After: 1");
  }

  @Test
  void serverErrorsExhaustTheRetries() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(FakeReply.error(500, "{\"error\":\"boom\"}"));
    }
    server.enqueue(embeddings(new float[] {1, 0}));
    Embedder e = connect(conf(16, 2, 5_000, 2));
    Throwable err = failure(e.embedPassages(List.of("a")));
    assertInstanceOf(EmbeddingException.class, err);
    assertTrue(err.getMessage().contains("HTTP 500"), err.getMessage());
    assertTrue(err.getMessage().contains("gave up after 3 attempts"), err.getMessage());
    assertFalse(err.getMessage().contains("boom"), "the provider's body is logged, not relayed: " + err.getMessage());
    assertEquals(3, server.requestCount(), "1 try + 2 retries");
  }

  @Test
  void slowServerTimesOut() throws Exception {
    server.enqueue(embeddings(new float[] {1, 0}).delay(3_000));
    server.enqueue(embeddings(new float[] {1, 0}).delay(3_000));
    Embedder e = connect(conf(16, 2, 300, 1));
    long start = System.nanoTime();
    Throwable err = failure(e.embedQuery("q"));
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    assertTrue(err.getMessage().contains("timed out after 300 ms"), err.getMessage());
    assertTrue(elapsedMs < 2_500, "took " + elapsedMs + " ms");
    assertEquals(2, server.requestCount(), "a timeout is retried");
  }

  @Test
  void malformedBodyFailsAtOnce() throws Exception {
    server.enqueue(FakeReply.body("<html>not json</html>"));
    Embedder e = connect(conf(16, 2, 5_000, 3));
    Throwable err = failure(e.embedQuery("q"));
    assertTrue(err.getMessage().contains("is not a JSON object"), err.getMessage());
    assertEquals(1, server.requestCount());

    server.enqueue(FakeReply.body("{\"data\":[{\"index\":0,\"embedding\":[1,\"x\"]}]}"));
    err = failure(e.embedQuery("q"));
    assertTrue(err.getMessage().contains("embedding[1] is not a finite number"), err.getMessage());
  }

  @Test
  void wrongCountOrDuplicateIndexIsRejected() throws Exception {
    server.enqueue(embeddings(new float[] {1, 0}));
    Embedder e = connect(conf(16, 2, 5_000, 0));
    Throwable err = failure(e.embedPassages(List.of("a", "b")));
    assertTrue(err.getMessage().contains("has 1 embeddings for 2 inputs"), err.getMessage());

    server.enqueue(FakeReply.body("{\"data\":[{\"index\":0,\"embedding\":[1,0]},{\"index\":0,\"embedding\":[0,1]}]}"));
    err = failure(e.embedPassages(List.of("a", "b")));
    assertTrue(err.getMessage().contains("duplicate or out-of-range index"), err.getMessage());
  }

  @Test
  void resultsAndRetriesStayOnTheCallersContext() throws Exception {
    server.enqueue(FakeReply.error(503, "busy"));
    server.enqueue(embeddings(new float[] {0, 1}));
    Embedder e = connect(conf(16, 2, 5_000, 2));
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<Context> seen = new CompletableFuture<>();
    ctx.runOnContext(v -> e.embedQuery("q").onComplete(ar -> {
      if (ar.failed()) {
        seen.completeExceptionally(ar.cause());
      } else {
        seen.complete(Vertx.currentContext());
      }
    }));
    assertSame(ctx, seen.get(10, TimeUnit.SECONDS));
    assertEquals(2, server.requestCount());
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static Throwable failure(Future<?> f) {
    ExecutionException ex = assertThrows(ExecutionException.class, () -> await(f));
    return ex.getCause();
  }
}
