package dev.argus.llm;

import dev.argus.testing.FakeAnthropicServer;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class StructuredOutputTest {

  private static final JsonObject SCHEMA = new JsonObject()
      .put("type", "object")
      .put("properties", new JsonObject()
          .put("intent", new JsonObject().put("type", "string").put("enum", new JsonArray().add("retrieval").add("smalltalk")))
          .put("confidence", new JsonObject().put("type", "number").put("minimum", 0).put("maximum", 1)))
      .put("required", new JsonArray().add("intent").add("confidence"))
      .put("additionalProperties", false);

  private FakeOpenAiServer server;
  private LlmClient client;
  private StructuredOutput structured;
  private Context ctx;

  @BeforeEach
  void setUp(Vertx vertx) {
    server = FakeOpenAiServer.start(vertx).await();
    client = LlmClients.create(vertx, server.llmConf());
    structured = new StructuredOutput(client);
    ctx = vertx.getOrCreateContext();
  }

  @AfterEach
  void tearDown() {
    client.close().await();
    server.close().await();
  }

  @Test
  void validFencedAnswerNeedsNoRepair() throws Exception {
    server.enqueue(FakeReply.text("Here you go:\n```json\n{\"intent\": \"retrieval\", \"confidence\": 0.8}\n```"));

    JsonObject out = OnContext.await(ctx, () -> structured.generate("Classify.", "What is KYC?", SCHEMA));

    assertEquals(new JsonObject().put("intent", "retrieval").put("confidence", 0.8), out);
    assertEquals(1, server.requestCount());
    JsonObject body = server.lastRequest().body();
    assertEquals(new JsonObject().put("type", "json_object"), body.getJsonObject("response_format"));
    String system = body.getJsonArray("messages").getJsonObject(0).getString("content");
    assertTrue(system.startsWith("Classify."), system);
    assertTrue(system.contains("\"smalltalk\""), "schema in the prompt: " + system);
    assertEquals(1, structured.stats().attempts());
    assertEquals(0, structured.stats().repairs());
  }

  @Test
  void malformedJsonLeadsToExactlyOneRepairThatSucceeds() throws Exception {
    String broken = "Sure! {\"intent\": \"retrieval\", \"confidence\": ";
    server.enqueue(FakeReply.text(broken), FakeReply.text("{\"intent\":\"smalltalk\",\"confidence\":0.3}"));

    JsonObject out = OnContext.await(ctx, () -> structured.generate("Classify.", "hello there", SCHEMA));

    assertEquals(new JsonObject().put("intent", "smalltalk").put("confidence", 0.3), out);
    assertEquals(2, server.requestCount());
    JsonArray repairMessages = server.lastRequest().body().getJsonArray("messages");
    String repair = repairMessages.getJsonObject(repairMessages.size() - 1).getString("content");
    assertTrue(repair.contains(broken), "the invalid output is sent back: " + repair);
    assertTrue(repair.contains("not valid JSON"), "the validation error is sent: " + repair);
    assertTrue(repair.contains("\"additionalProperties\" : false"), "the schema is sent: " + repair);
    assertEquals(broken, repairMessages.getJsonObject(repairMessages.size() - 2).getString("content"));
    LlmStats stats = structured.stats();
    assertEquals(1, stats.attempts());
    assertEquals(1, stats.repairs());
    assertEquals(0, stats.repairFailures());
    assertEquals(0, stats.fallbacks());
  }

  @Test
  void stillInvalidAfterTheRepairFailsClearlyAndCounts() throws Exception {
    server.enqueue(FakeReply.text("{\"intent\": \"weather\", \"confidence\": 2}"),
        FakeReply.text("{\"intent\": \"weather\", \"confidence\": 0.5, \"extra\": 1}"),
        FakeReply.text("{\"intent\":\"retrieval\",\"confidence\":0.9}"));

    Throwable err = OnContext.failure(ctx, () -> structured.generate("Classify.", "weather?", SCHEMA));

    StructuredOutputException failure = assertInstanceOf(StructuredOutputException.class, err);
    assertTrue(failure.getMessage().contains("after one repair"), failure.getMessage());
    assertEquals(2, failure.errors().size(), failure.errors().toString());
    assertTrue(failure.output().contains("extra"));
    String firstRepair = server.lastRequest().body().getJsonArray("messages").getJsonObject(3).getString("content");
    assertTrue(firstRepair.contains("weather") && firstRepair.contains("enum"), firstRepair);
    assertEquals(2, server.requestCount(), "exactly one repair request");
    LlmStats stats = structured.stats();
    assertEquals(1, stats.attempts());
    assertEquals(1, stats.repairs());
    assertEquals(1, stats.repairFailures());
    assertEquals(1, stats.fallbacks());
    assertEquals(new JsonObject().put("attempts", 1).put("repairs", 1).put("repairFailures", 1).put("fallbacks", 1),
        stats.toJson().getJsonObject("structured"));
  }

  @Test
  void noProviderFailsAtOnceAndCountsAFallback() throws Exception {
    StructuredOutput none = new StructuredOutput(new NoLlmClient());
    Throwable err = OnContext.failure(ctx, () -> none.generate("s", "u", SCHEMA));
    assertInstanceOf(LlmUnavailableException.class, err);
    assertEquals("no LLM configured", err.getMessage());
    assertEquals(1, none.stats().fallbacks());
    assertEquals(0, server.requestCount());
  }

  @Test
  void worksWithAnthropicWithoutResponseFormat(Vertx vertx) throws Exception {
    FakeAnthropicServer anthropic = FakeAnthropicServer.start(vertx).await();
    LlmClient claude = LlmClients.create(vertx, anthropic.llmConf());
    try {
      anthropic.enqueue(FakeReply.text("{\"intent\":\"retrieval\",\"confidence\":1}"));
      JsonObject out = OnContext.await(ctx, () -> new StructuredOutput(claude).generate(
          List.of(ChatMessage.user("What is AML?")), SCHEMA));
      assertEquals("retrieval", out.getString("intent"));
      JsonObject body = anthropic.lastRequest().body();
      assertNull(body.getValue("response_format"));
      assertTrue(body.getString("system").contains("JSON schema"));
    } finally {
      claude.close();
      anthropic.close();
    }
  }

  @Test
  void extractionFindsObjectsInFencesAndProse() {
    assertEquals("{\"a\":1}", JsonSchemaCheck.extract("```json\n{\"a\":1}\n```"));
    assertEquals("{\"a\":{\"b\":2}}", JsonSchemaCheck.extract("The result is {\"a\":{\"b\":2}} as asked."));
    assertFalse(JsonSchemaCheck.check("[1,2]", SCHEMA).valid());
    assertEquals(List.of("the answer contains no JSON object"), JsonSchemaCheck.check("", SCHEMA).errors());
  }
}
