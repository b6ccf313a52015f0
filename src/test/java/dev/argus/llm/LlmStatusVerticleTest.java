package dev.argus.llm;

import dev.argus.bus.Addresses;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(VertxExtension.class)
class LlmStatusVerticleTest {

  @Test
  void repliesWithProviderBreakerAndCounters(Vertx vertx) throws Exception {
    FakeOpenAiServer server = FakeOpenAiServer.start(vertx).await();
    LlmClient client = LlmClients.create(vertx, server.llmConf());
    try {
      server.enqueue(FakeReply.error(503), FakeReply.text("{\"a\": 1}").usage(11, 4));
      OnContext.await(vertx.getOrCreateContext(), () -> new StructuredOutput(client).generate("s", "u",
          new JsonObject().put("type", "object")));
      vertx.deployVerticle(new LlmStatusVerticle(client)).await();

      JsonObject status = vertx.eventBus().<JsonObject>request(Addresses.LLM_STATUS, new JsonObject()).await().body();

      assertEquals("openai", status.getString("provider"));
      assertEquals(true, status.getBoolean("enabled"));
      assertEquals("fake-model", status.getString("model"));
      assertEquals("CLOSED", status.getString("breaker"));
      assertEquals(0, status.getInteger("active"));
      JsonObject stats = status.getJsonObject("stats");
      assertEquals(1, stats.getInteger("calls"));
      assertEquals(1, stats.getInteger("succeeded"));
      assertEquals(1, stats.getInteger("retries"));
      assertEquals(11, stats.getInteger("promptTokens"));
      assertEquals(4, stats.getInteger("completionTokens"));
      assertEquals(1, stats.getJsonObject("structured").getInteger("attempts"));
      assertEquals(0, stats.getJsonObject("structured").getInteger("repairs"));
      assertEquals(List.of("provider", "enabled", "stats"), List.copyOf(
          LlmStatusVerticle.status(new NoLlmClient()).fieldNames()));
    } finally {
      client.close();
      server.close();
    }
  }
}
