package dev.argus.llm;

import dev.argus.testing.FakeAnthropicServer;
import dev.argus.testing.FakeLlmServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class AnthropicClientTest {

  private FakeAnthropicServer server;
  private LlmClient client;
  private Context ctx;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = FakeAnthropicServer.start(vertx).await();
    client = LlmClients.create(vertx, server.llmConf(new JsonObject().put("maxTokens", 300)));
    ctx = vertx.getOrCreateContext();
  }

  @AfterEach
  void tearDown() {
    client.close().await();
    server.close().await();
  }

  @Test
  void plainMessageSeparatesTheSystemPromptAndReadsToolUse() throws Exception {
    server.enqueue(FakeReply.text("Let me look.").withToolCall("toolu_1", "knowledge_search", "{\"query\":\"kyc\"}")
        .usage(50, 9));
    ToolSpec spec = new ToolSpec("knowledge_search", "Search", new JsonObject().put("type", "object"));

    ChatResult result = OnContext.await(ctx, () -> client.chat(new ChatRequest(
        List.of(ChatMessage.system("You are Argus."), ChatMessage.user("KYC rules?")), List.of(spec), null, null)));

    assertEquals("anthropic", client.provider());
    assertEquals("Let me look.", result.content());
    assertEquals(List.of(new ToolCall("toolu_1", "knowledge_search", new JsonObject().put("query", "kyc"))),
        result.toolCalls());
    assertEquals(new Usage(50, 9), result.usage());
    assertEquals("tool_use", result.finishReason());
    FakeLlmServer.Recorded req = server.lastRequest();
    assertEquals("/v1/messages", req.path());
    assertEquals("test-key", req.header("x-api-key"));
    assertEquals("2023-06-01", req.header("anthropic-version"));
    assertEquals(null, req.header("Authorization"));
    JsonObject body = req.body();
    assertEquals("You are Argus.", body.getString("system"));
    assertEquals(300, body.getInteger("max_tokens"));
    assertEquals(new JsonArray().add(new JsonObject().put("role", "user").put("content", "KYC rules?")),
        body.getJsonArray("messages"));
    assertEquals(new JsonArray().add(new JsonObject().put("name", "knowledge_search").put("description", "Search")
        .put("input_schema", new JsonObject().put("type", "object"))), body.getJsonArray("tools"));
  }

  @Test
  void toolResultsTravelAsToolResultBlocks() throws Exception {
    server.enqueue(FakeReply.text("Done."));
    List<ChatMessage> history = List.of(
        ChatMessage.user("q"),
        new ChatMessage("assistant", "Searching.", List.of(
            new ToolCall("toolu_1", "knowledge_search", new JsonObject().put("query", "a")),
            new ToolCall("toolu_2", "get_document", new JsonObject().put("id", "d")),
            new ToolCall("toolu_3", "get_chunk_neighbours", new JsonObject())), null),
        ChatMessage.tool("toolu_1", "result one"),
        ChatMessage.tool("toolu_2", "result two"));

    OnContext.await(ctx, () -> client.chat(ChatRequest.of(history)));

    JsonArray messages = server.lastRequest().body().getJsonArray("messages");
    assertEquals(3, messages.size());
    JsonArray assistant = messages.getJsonObject(1).getJsonArray("content");
    assertEquals(new JsonObject().put("type", "text").put("text", "Searching."), assistant.getJsonObject(0));
    assertEquals(new JsonObject().put("type", "tool_use").put("id", "toolu_2").put("name", "get_document")
        .put("input", new JsonObject().put("id", "d")), assistant.getJsonObject(2));
    JsonObject results = messages.getJsonObject(2);
    assertEquals("user", results.getString("role"));
    assertEquals(new JsonArray()
        .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_1").put("content", "result one"))
        .add(new JsonObject().put("type", "tool_result").put("tool_use_id", "toolu_2").put("content", "result two")),
        results.getJsonArray("content"));
  }

  @Test
  void streamWithTextAndToolUseAssemblesInputJsonDeltas() throws Exception {
    server.enqueue(FakeReply.tokens("I will", " search", " now.")
        .withToolCall("toolu_9", "knowledge_search", "{\"query\": \"char", "geback limits\", \"filters\": {\"cat",
            "egory\": \"policy\"}}")
        .usage(120, 33).tokenDelay(3));
    List<String> tokens = new CopyOnWriteArrayList<>();
    List<Context> contexts = new CopyOnWriteArrayList<>();

    ChatResult result = OnContext.await(ctx, () -> client.stream(ChatRequest.of(List.of(ChatMessage.user("q"))), t -> {
      tokens.add(t);
      contexts.add(Vertx.currentContext());
    }));

    assertEquals(List.of("I will", " search", " now."), tokens);
    contexts.forEach(c -> assertSame(ctx, c));
    assertEquals("I will search now.", result.content());
    assertEquals(List.of(new ToolCall("toolu_9", "knowledge_search", new JsonObject().put("query", "chargeback limits")
        .put("filters", new JsonObject().put("category", "policy")))), result.toolCalls());
    assertEquals(new Usage(120, 33), result.usage());
    assertEquals("tool_use", result.finishReason());
    assertTrue(server.lastRequest().body().getBoolean("stream"));
    assertFalse(server.lastRequest().body().containsKey("system"));
  }

  @Test
  void overloadedErrorEventBeforeAnyTextIsRetried() throws Exception {
    server.enqueue(FakeReply.streamError("overloaded_error", "Overloaded"), FakeReply.text("fine now"));
    List<String> tokens = new CopyOnWriteArrayList<>();

    ChatResult result = OnContext.await(ctx, () -> client.stream(ChatRequest.of(List.of(ChatMessage.user("q"))), tokens::add));

    assertEquals("fine now", result.content());
    assertEquals(List.of("fine", " now"), tokens);
    assertEquals(2, server.requestCount());
    assertEquals(1, client.stats().retries());
  }

  @Test
  void invalidRequestErrorEventFailsWithoutRetry() throws Exception {
    server.enqueue(FakeReply.streamError("invalid_request_error", "bad tool schema"));
    Throwable err = OnContext.failure(ctx, () -> client.stream(ChatRequest.of(List.of(ChatMessage.user("q"))), t -> { }));
    assertTrue(err instanceof LlmProviderException, err.toString());
    assertEquals(400, ((LlmProviderException) err).status());
    // The error type is named; the provider's own words are logged, not relayed (issue 9).
    assertTrue(err.getMessage().contains("stream error (invalid_request_error)"), err.getMessage());
    assertFalse(err.getMessage().contains("bad tool schema"), err.getMessage());
    assertEquals(1, server.requestCount());
  }
}
