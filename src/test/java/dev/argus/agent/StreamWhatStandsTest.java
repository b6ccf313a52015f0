package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only text that stands is streamed as answer text. The model's draft (with a sentence Reflect drops, a fabricated
 * citation and one copied from a document) streams as {@code draft} events; the final answer's text streams as
 * {@code token}s after Reflect, once a {@code reset} withdrew the draft. {@code /v1/chat/completions} clients receive
 * exactly the final answer.
 */
class StreamWhatStandsTest {

  static final String KEPT = "Refunds are processed within 14 days after the returned item arrives at the warehouse.";
  static final String DRAFT = KEPT + " [cite:refund-policy:1] Refunds also come with a free gift voucher. "
      + "[cite:refund-policy:1] [cite:nonexistent:0]";

  @Test
  void draftsAreWithdrawnAndOnlyTheFinalTextIsStreamed() {
    Vertx vertx = Vertx.vertx();
    try {
      FakeOpenAiServer llm = await(FakeOpenAiServer.start(vertx));
      ArgusConfig conf = AgentHarness.withLlm(AgentHarness.config(), llm.conf());
      AgentHarness app = await(AgentHarness.start(vertx, conf, Corpus.standard()));
      llm.respondWith(req -> {
        String system = req.body().getJsonArray("messages").getJsonObject(0).getString("content");
        if (system.startsWith("You answer")) {
          return FakeReply.text(DRAFT).tokenDelay(2);
        }
        if (system.startsWith("You check")) {
          return FakeReply.text("{\"sentences\": [{\"index\": 0, \"supported\": true, \"reason\": \"stated\"}, "
              + "{\"index\": 1, \"supported\": false, \"reason\": \"not in the evidence\"}], \"contradictions\": [], "
              + "\"overconfident\": []}");
        }
        return LlmPathsTest.phases("unused").apply(req);
      });

      SseClient.Result r = await(new SseClient(vertx, app.port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed?"), null));
      JsonObject fin = r.last("final").data();
      assertEquals(KEPT + " [cite:refund-policy:1]", fin.getString("answer"));
      // a fabricated citation was dropped: the answer is not verified
      assertFalse(fin.getBoolean("verified"), fin.encodePrettily());
      List<String> types = r.types();
      assertTrue(types.contains("draft"), types.toString());
      int lastDraft = types.lastIndexOf("draft");
      int reset = types.indexOf("reset");
      int firstToken = types.indexOf("token");
      int reflectEnd = -1;
      for (int i = 0; i < r.events().size(); i++) {
        SseClient.Event e = r.events().get(i);
        if ("phase".equals(e.type()) && "reflect".equals(e.data().getString("name"))
            && "end".equals(e.data().getString("status"))) {
          reflectEnd = i;
        }
      }
      assertTrue(lastDraft < reset && reset < firstToken && reflectEnd < firstToken, types.toString());
      StringBuilder tokens = new StringBuilder();
      r.all("token").forEach(t -> tokens.append(t.data().getString("text")));
      assertEquals(fin.getString("answer"), tokens.toString());
      // drafts never carry citation markers (the model may copy marker-like text from documents)
      r.all("draft").forEach(d -> assertFalse(d.data().getString("text").contains("[cite:"), d.data().encode()));

      // the OpenAI-compatible stream carries exactly the final answer
      JsonObject body = new JsonObject().put("model", "argus").put("stream", true).put("messages", new JsonArray()
          .add(new JsonObject().put("role", "user").put("content", "How are refunds processed, and how long?")));
      HttpClient http = vertx.createHttpClient();
      String raw = await(http.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(app.port())
              .setHost("127.0.0.1").setURI("/v1/chat/completions").putHeader("Content-Type", "application/json"))
          .compose(req -> req.send(Buffer.buffer(body.encode())))
          .compose(resp -> resp.body())).toString();
      StringBuilder content = new StringBuilder();
      String finalAnswer = null;
      for (String line : raw.split("\n")) {
        if (!line.startsWith("data: {")) {
          continue;
        }
        JsonObject chunk = new JsonObject(line.substring(6));
        JsonObject delta = chunk.getJsonArray("choices").getJsonObject(0).getJsonObject("delta");
        content.append(delta.getString("content", ""));
        if (chunk.containsKey("argus")) {
          finalAnswer = chunk.getJsonObject("argus").getString("answer");
        }
      }
      assertEquals(finalAnswer, content.toString(), raw);
      assertFalse(content.toString().contains("gift voucher"), content.toString());
      assertFalse(content.toString().contains("nonexistent"), content.toString());
    } finally {
      await(vertx.close());
    }
  }
}
