package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chat admission on the real server ({@code agent.maxConcurrentChats} 1, {@code agent.maxQueuedChats} 1; every search
 * reaches the real retriever 2 s late, so a chat holds its slot for seconds): the first chat runs, the second waits its
 * turn and then runs to {@code final} too, the third finds the queue full and is refused 503 {@code overloaded} at once.
 */
class ChatAdmissionTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
  }

  @Test
  void oneRunsOneWaitsTheThirdIsRefused() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir()).with("agent", "cacheTtlMs", 0)
          .with("agent", "maxConcurrentChats", 1).with("agent", "maxQueuedChats", 1)));
      BusFault.on(vertx, Addresses.RETRIEVE_SEARCH).delayMs = 2_000;
      SseClient client = new SseClient(vertx, app.port());

      long t0 = System.nanoTime();
      Future<SseClient.Result> first = client.post("/api/chat", new JsonObject().put("question", "First?"), null);
      Thread.sleep(300); // the first has its slot
      Future<SseClient.Result> second = client.post("/api/chat", new JsonObject().put("question", "Second?"), null);
      Thread.sleep(300); // the second waits
      SseClient.Result third = await(client.post("/api/chat", new JsonObject().put("question", "Third?"), null));
      long thirdMs = (System.nanoTime() - t0) / 1_000_000;
      assertEquals(503, third.status(), third.body());
      assertEquals("overloaded", new JsonObject(third.body()).getString("code"), third.body());

      SseClient.Result a = await(first);
      long firstMs = (System.nanoTime() - t0) / 1_000_000;
      SseClient.Result b = await(second);
      long secondMs = (System.nanoTime() - t0) / 1_000_000;
      assertEquals("final", a.types().get(a.types().size() - 1), a.types().toString());
      assertEquals("final", b.types().get(b.types().size() - 1), b.types().toString());
      // the refusal came while the first still ran (its searches take 2 s); the second ran after the first, so it
      // ended at least one (2 s) search later
      assertTrue(thirdMs < firstMs, "refused at " + thirdMs + " ms, first ended at " + firstMs + " ms");
      assertTrue(secondMs - firstMs >= 2_000, "second ended " + (secondMs - firstMs) + " ms after the first");
    } finally {
      await(vertx.close());
    }
  }
}
