package dev.argus.agent;

import dev.argus.llm.LlmClients;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that stops reading while a long answer streams: the server pauses its bus consumer (bounded buffer), the
 * run is not disturbed, and when the client reads again it receives every event exactly once, in order.
 */
class BackpressureTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  @Test
  void slowReaderGetsEveryEventInOrder() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      FakeOpenAiServer llm = await(FakeOpenAiServer.start(vertx));
      int tokens = 4500;
      String filler = " days".repeat(200);
      String[] chunks = new String[tokens + 2];
      chunks[0] = "Refunds are processed within 14 days";
      for (int i = 1; i <= tokens; i++) {
        chunks[i] = filler;
      }
      chunks[tokens + 1] = ". [cite:refund-policy:1]";
      llm.respondWith(req -> {
        String system = req.body().getJsonArray("messages").getJsonObject(0).getString("content");
        return system.startsWith("You answer") ? FakeReply.tokens(chunks) : FakeReply.error(503);
      });
      AgentHarness app = await(AgentHarness.start(vertx, TestApp.config(TestApp.tempDataDir())
          .with("agent", "sseMaxBuffered", 16), LlmClients.create(vertx, llm.llmConf(new JsonObject()
          .put("maxRetries", 0).put("timeoutMs", 20_000))), Corpus.standard()));

      HttpClient client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions().setReceiveBufferSize(4096));
      Promise<List<Long>> ids = Promise.promise();
      List<Long> seen = new ArrayList<>();
      StringBuilder buf = new StringBuilder();
      client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(app.port())
              .setURI("/api/chat").putHeader("Content-Type", "application/json"))
          .compose(req -> req.send(new JsonObject().put("question", "How long do refunds take?").encode()))
          .onSuccess(resp -> {
            resp.pause(); // the client stops reading
            resp.handler(chunk -> {
              buf.append(chunk.toString());
              int end;
              while ((end = buf.indexOf("\n\n")) >= 0) {
                String frame = buf.substring(0, end);
                buf.delete(0, end + 2);
                if (frame.startsWith("id: ")) {
                  seen.add(Long.parseLong(frame.substring(4, frame.indexOf('\n'))));
                  if (frame.contains("event: final") || frame.contains("event: error")) {
                    ids.tryComplete(seen);
                  }
                }
              }
            });
            resp.endHandler(v -> ids.tryComplete(seen));
            vertx.setTimer(2_000, t -> resp.resume()); // ... and reads again later
          });
      List<Long> got = await(ids.future());
      assertTrue(got.size() > tokens, "only " + got.size() + " events");
      for (int i = 0; i < got.size(); i++) {
        assertEquals(i + 1, got.get(i), "event " + i);
      }
      assertTrue(buf.length() == 0 || !buf.toString().contains("id: "));
    } finally {
      await(vertx.close());
    }
  }
}
