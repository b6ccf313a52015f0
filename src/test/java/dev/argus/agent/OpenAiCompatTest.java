package dev.argus.agent;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code POST /v1/chat/completions}, stream and non-stream, read by real HTTP clients as an OpenAI client would. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenAiCompatTest {

  private Vertx vertx;
  private AgentHarness app;
  private WebClient web;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    app = await(AgentHarness.start(vertx, AgentHarness.config(), Corpus.standard()));
    web = WebClient.create(vertx);
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static JsonObject request(boolean stream, String question) {
    return new JsonObject().put("model", "argus").put("stream", stream).put("messages", new JsonArray()
        .add(new JsonObject().put("role", "system").put("content", "You are helpful."))
        .add(new JsonObject().put("role", "user").put("content", "hi"))
        .add(new JsonObject().put("role", "assistant").put("content", "Hello!"))
        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
            .add(new JsonObject().put("type", "text").put("text", question)))));
  }

  @Test
  void nonStreamAnswersAChatCompletionWithCitations() throws Exception {
    HttpResponse<Buffer> resp = await(web.post(app.port(), "127.0.0.1", "/v1/chat/completions")
        .sendJsonObject(request(false, "How long do refunds take to be processed?")));
    assertEquals(200, resp.statusCode(), resp.bodyAsString());
    JsonObject body = resp.bodyAsJsonObject();
    assertEquals("chat.completion", body.getString("object"));
    assertEquals("argus", body.getString("model"));
    JsonObject choice = body.getJsonArray("choices").getJsonObject(0);
    assertEquals("assistant", choice.getJsonObject("message").getString("role"));
    assertEquals("stop", choice.getString("finish_reason"));
    String content = choice.getJsonObject("message").getString("content");
    assertTrue(content.contains("14 days") && content.contains("[cite:refund-policy:1]"), content);
    JsonArray citations = body.getJsonArray("citations");
    assertTrue(citations.stream().map(JsonObject.class::cast).anyMatch(c -> "refund-policy".equals(c.getString("documentId"))));
    assertTrue(body.getJsonObject("argus").getBoolean("verified"));
    assertTrue(body.getString("id").startsWith("chatcmpl-"));
  }

  @Test
  void streamSendsChunksThenFinalChunkWithCitationsThenDone() throws Exception {
    SseClient.Result r = await(new SseClient(vertx, app.port()).post("/v1/chat/completions",
        request(true, "How long does standard shipping take?"), null));
    assertEquals(200, r.status());
    var events = r.events();
    assertEquals("[DONE]", events.get(events.size() - 1).data().getString("raw"));
    JsonObject first = events.get(0).data();
    assertEquals("chat.completion.chunk", first.getString("object"));
    assertEquals("assistant", first.getJsonArray("choices").getJsonObject(0).getJsonObject("delta").getString("role"));
    StringBuilder content = new StringBuilder();
    for (int i = 1; i < events.size() - 2; i++) {
      JsonObject choice = events.get(i).data().getJsonArray("choices").getJsonObject(0);
      assertNull(choice.getString("finish_reason"));
      content.append(choice.getJsonObject("delta").getString("content"));
    }
    assertTrue(content.toString().contains("3 to 5 business days"), content.toString());
    JsonObject last = events.get(events.size() - 2).data();
    assertEquals("stop", last.getJsonArray("choices").getJsonObject(0).getString("finish_reason"));
    assertTrue(last.getJsonArray("citations").size() >= 1);
    assertEquals("shipping", last.getJsonArray("citations").getJsonObject(0).getString("documentId"));
  }

  @Test
  void errorsUseTheOpenAiShape() throws Exception {
    HttpResponse<Buffer> empty = await(web.post(app.port(), "127.0.0.1", "/v1/chat/completions")
        .sendJsonObject(new JsonObject().put("messages", new JsonArray())));
    assertEquals(400, empty.statusCode());
    assertEquals("invalid_request_error", empty.bodyAsJsonObject().getJsonObject("error").getString("type"));
    HttpResponse<Buffer> badModel = await(web.post(app.port(), "127.0.0.1", "/v1/chat/completions")
        .sendJsonObject(request(false, "refunds?").put("model", "gpt-17")));
    assertEquals(400, badModel.statusCode());
    assertEquals("unknown_profile", badModel.bodyAsJsonObject().getJsonObject("error").getString("code"));
    HttpResponse<Buffer> badJson = await(web.post(app.port(), "127.0.0.1", "/v1/chat/completions")
        .putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer("{nope")));
    assertEquals(400, badJson.statusCode());
    HttpResponse<Buffer> named = await(web.post(app.port(), "127.0.0.1", "/v1/chat/completions")
        .sendJsonObject(request(false, "How long do refunds take?").put("model", "argus-assistant")));
    assertEquals(200, named.statusCode());
  }
}
