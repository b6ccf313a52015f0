package dev.argus.llm;

import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's added latency over a provider that answers after a fixed delay (fake server, loopback HTTP):
 * sequential plain calls, sequential streams, and 16 concurrent plain calls. Prints p50/p95 of the overhead.
 */
@ExtendWith(VertxExtension.class)
class LlmClientOverheadTest {

  private static final long DELAY_MS = 50;
  private static final ChatRequest Q = ChatRequest.of(List.of(ChatMessage.user("q")));

  @Test
  void overheadOverAFixedProviderDelayIsSmall(Vertx vertx) throws Exception {
    FakeOpenAiServer server = FakeOpenAiServer.start(vertx).await();
    server.respondWith(req -> FakeReply.text("one two three four five six seven eight nine ten").delay(DELAY_MS));
    LlmClient client = LlmClients.create(vertx, server.llmConf(new JsonObject().put("maxConcurrent", 16)));
    Context ctx = vertx.getOrCreateContext();
    try {
      for (int i = 0; i < 10; i++) {
        OnContext.await(ctx, () -> client.chat(Q));
      }
      List<Long> plain = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        long t0 = System.nanoTime();
        OnContext.await(ctx, () -> client.chat(Q));
        plain.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0) - DELAY_MS * 1000);
      }
      List<Long> streamed = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        long t0 = System.nanoTime();
        ChatResult r = OnContext.await(ctx, () -> client.stream(Q, t -> { }));
        streamed.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0) - DELAY_MS * 1000);
        assertEquals(10, r.content().split(" ").length);
      }
      List<Long> concurrent = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        List<CompletableFuture<Long>> batch = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          long t0 = System.nanoTime();
          batch.add(OnContext.start(ctx, () -> client.chat(Q)
              .map(r -> TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - t0) - DELAY_MS * 1000)));
        }
        for (CompletableFuture<Long> f : batch) {
          concurrent.add(f.get(10, TimeUnit.SECONDS));
        }
      }
      System.out.printf("LLM client overhead over a %d ms provider delay (ms): plain p50 %.2f p95 %.2f | "
              + "stream(10 tokens) p50 %.2f p95 %.2f | 16 concurrent p50 %.2f p95 %.2f%n", DELAY_MS,
          pct(plain, 50), pct(plain, 95), pct(streamed, 50), pct(streamed, 95), pct(concurrent, 50), pct(concurrent, 95));
      assertTrue(pct(plain, 50) < DELAY_MS, "plain overhead p50 " + pct(plain, 50) + " ms");
      assertTrue(pct(streamed, 50) < DELAY_MS, "stream overhead p50 " + pct(streamed, 50) + " ms");
      assertTrue(server.maxConcurrent() <= 16, "cap " + server.maxConcurrent());
    } finally {
      client.close();
      server.close();
    }
  }

  private static double pct(List<Long> micros, int p) {
    List<Long> sorted = new ArrayList<>(micros);
    Collections.sort(sorted);
    int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, idx)) / 1000.0;
  }
}
