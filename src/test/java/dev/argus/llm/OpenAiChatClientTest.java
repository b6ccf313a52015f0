package dev.argus.llm;

import dev.argus.testing.FakeLlmServer;
import dev.argus.testing.FakeOpenAiServer;
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
class OpenAiChatClientTest {

  private static final JsonObject SEARCH_SCHEMA = new JsonObject().put("type", "object")
      .put("properties", new JsonObject().put("query", new JsonObject().put("type", "string")))
      .put("required", new JsonArray().add("query"));

  private FakeOpenAiServer server;
  private LlmClient client;
  private Context ctx;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = FakeOpenAiServer.start(vertx).await();
    client = LlmClients.create(vertx, server.llmConf());
    ctx = vertx.getOrCreateContext();
  }

  @AfterEach
  void tearDown() {
    client.close().await();
    server.close().await();
  }

  @Test
  void plainCompletionSendsTheOpenAiRequestAndReadsTextAndUsage() throws Exception {
    server.enqueue(FakeReply.text("Paris is the capital.").usage(21, 5));

    ChatResult result = OnContext.await(ctx, () -> client.chat(new ChatRequest(
        List.of(ChatMessage.system("Be brief."), ChatMessage.user("Capital of France?")), List.of(), 0.5, 64)));

    assertEquals("Paris is the capital.", result.content());
    assertEquals(new Usage(21, 5), result.usage());
    assertEquals("stop", result.finishReason());
    FakeLlmServer.Recorded req = server.lastRequest();
    assertEquals("/v1/chat/completions", req.path());
    assertEquals("Bearer test-key", req.header("Authorization"));
    JsonObject body = req.body();
    assertEquals("fake-model", body.getString("model"));
    assertEquals(0.5, body.getDouble("temperature"));
    assertEquals(64, body.getInteger("max_tokens"));
    assertFalse(body.containsKey("stream"));
    assertEquals(new JsonArray()
        .add(new JsonObject().put("role", "system").put("content", "Be brief."))
        .add(new JsonObject().put("role", "user").put("content", "Capital of France?")), body.getJsonArray("messages"));
    assertEquals(1, client.stats().succeeded());
    assertEquals(21, client.stats().promptTokens());
  }

  @Test
  void baseUrlMayAlreadyEndWithV1(Vertx vertx) throws Exception {
    LlmClient withV1 = LlmClients.create(vertx, server.llmConf(new JsonObject().put("baseUrl", server.baseUrl() + "/v1/")));
    try {
      server.enqueue(FakeReply.text("ok"));
      assertEquals("ok", OnContext.await(ctx, () -> withV1.chat(ChatRequest.of(List.of(ChatMessage.user("hi"))))).content());
      assertEquals("/v1/chat/completions", server.lastRequest().path());
    } finally {
      withV1.close();
    }
  }

  @Test
  void toolsAreOfferedInFunctionFormatAndToolCallsParsed() throws Exception {
    server.enqueue(FakeReply.toolCall("call_7", "knowledge_search", "{\"query\":\"refund policy\"}"));
    ToolSpec spec = new ToolSpec("knowledge_search", "Search the knowledge base", SEARCH_SCHEMA);
    List<ChatMessage> history = List.of(
        ChatMessage.user("What is the refund policy?"),
        new ChatMessage("assistant", null, List.of(new ToolCall("call_1", "get_document",
            new JsonObject().put("id", "d1"))), null),
        ChatMessage.tool("call_1", "{\"title\":\"Refunds\"}"));

    ChatResult result = OnContext.await(ctx, () -> client.chat(new ChatRequest(history, List.of(spec), null, null)));

    assertEquals(List.of(new ToolCall("call_7", "knowledge_search", new JsonObject().put("query", "refund policy"))),
        result.toolCalls());
    assertEquals("tool_calls", result.finishReason());
    assertEquals("", result.content(), "no text: empty, not null");
    JsonObject body = server.lastRequest().body();
    assertEquals(new JsonArray().add(new JsonObject().put("type", "function").put("function", new JsonObject()
        .put("name", "knowledge_search").put("description", "Search the knowledge base")
        .put("parameters", SEARCH_SCHEMA))), body.getJsonArray("tools"));
    JsonObject assistant = body.getJsonArray("messages").getJsonObject(1);
    JsonObject call = assistant.getJsonArray("tool_calls").getJsonObject(0);
    assertEquals("call_1", call.getString("id"));
    assertEquals("function", call.getString("type"));
    assertEquals("get_document", call.getJsonObject("function").getString("name"));
    assertEquals(new JsonObject().put("id", "d1"), new JsonObject(call.getJsonObject("function").getString("arguments")));
    JsonObject tool = body.getJsonArray("messages").getJsonObject(2);
    assertEquals("tool", tool.getString("role"));
    assertEquals("call_1", tool.getString("tool_call_id"));
  }

  @Test
  void streamDeliversTokensInOrderOnTheCallersContext() throws Exception {
    server.enqueue(FakeReply.tokens("The", " answer", " is", " 42", ".").usage(30, 5).tokenDelay(5));
    List<String> tokens = new CopyOnWriteArrayList<>();
    List<Context> contexts = new CopyOnWriteArrayList<>();

    ChatResult result = OnContext.await(ctx, () -> client.stream(ChatRequest.of(List.of(ChatMessage.user("q"))), t -> {
      tokens.add(t);
      contexts.add(Vertx.currentContext());
    }));

    assertEquals(List.of("The", " answer", " is", " 42", "."), tokens);
    assertEquals(5, contexts.size());
    contexts.forEach(c -> assertSame(ctx, c, "token delivered on another context"));
    assertEquals("The answer is 42.", result.content());
    assertEquals(new Usage(30, 5), result.usage());
    assertEquals("stop", result.finishReason());
    JsonObject body = server.lastRequest().body();
    assertTrue(body.getBoolean("stream"));
    assertTrue(body.getJsonObject("stream_options").getBoolean("include_usage"));
    assertEquals("text/event-stream", server.lastRequest().header("Accept"));
  }

  @Test
  void streamedToolCallsAssembleFragmentedArgumentsByIndex() throws Exception {
    server.enqueue(FakeReply.toolCall("call_a", "knowledge_search", "{\"qu", "ery\": \"fraud ", "rules\", \"topK\"", ": 5}")
        .withToolCall("call_b", "get_document", "{\"id\"", ":\"doc-", "9\"}")
        .usage(40, 12));
    List<String> tokens = new CopyOnWriteArrayList<>();

    ChatResult result = OnContext.await(ctx, () -> client.stream(ChatRequest.of(List.of(ChatMessage.user("q"))), tokens::add));

    assertEquals(List.of(), tokens);
    assertEquals(List.of(
        new ToolCall("call_a", "knowledge_search", new JsonObject().put("query", "fraud rules").put("topK", 5)),
        new ToolCall("call_b", "get_document", new JsonObject().put("id", "doc-9"))), result.toolCalls());
    assertEquals("tool_calls", result.finishReason());
    assertEquals(new Usage(40, 12), result.usage());
  }

  @Test
  void jsonOutputAsksForResponseFormat() throws Exception {
    server.enqueue(FakeReply.text("{}"));
    OnContext.await(ctx, () -> client.chat(ChatRequest.of(List.of(ChatMessage.user("q"))).withJsonOutput()));
    assertEquals(new JsonObject().put("type", "json_object"), server.lastRequest().body().getJsonObject("response_format"));
  }
}
