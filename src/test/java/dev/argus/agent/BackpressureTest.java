package dev.argus.agent;

import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
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
 * A client that stops reading for 2 s while a long answer streams receives, once it reads again, every event exactly
 * once and in order, and the run is not disturbed; nothing warns per event. At this volume (about 0.4 MB) the socket
 * buffers usually absorb it (a larger volume is too slow for the shared CI machine); {@code RunEventRelayTest} drives
 * the relay's fall-behind / catch-up-from-the-log path deterministically with a client whose queue keeps filling.
 */
class BackpressureTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  @Test
  void slowReaderGetsEveryEventInOrder() throws Exception {
    List<String> relayLog = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler capture = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        if (r.getLoggerName().endsWith("RunEventRelay")) {
          relayLog.add(r.getMessage());
        }
        if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()
            && r.getLoggerName().startsWith("io.vertx")) {
          warnings.add(r.getLoggerName() + ": " + r.getMessage());
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    java.util.logging.Logger.getLogger("").addHandler(capture);
    Vertx vertx = Vertx.vertx();
    try {
      FakeOpenAiServer llm = await(FakeOpenAiServer.start(vertx));
      int tokens = 1500;
      String filler = " days".repeat(50);
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
      AgentHarness app = await(AgentHarness.start(vertx, AgentHarness.withLlm(AgentHarness.config()
          .with("agent", "sseMaxBuffered", 16), llm.conf().put("maxRetries", 0).put("timeoutMs", 120_000)),
          Corpus.standard()));

      HttpClient client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions().setReceiveBufferSize(4096));
      Promise<List<Long>> ids = Promise.promise();
      List<Long> seen = new ArrayList<>();
      StringBuilder buf = new StringBuilder();
      boolean[] finalSeen = {false};
      client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(app.port())
              .setURI("/api/chat").putHeader("Content-Type", "application/json"))
          .onSuccess(req -> req.send(new JsonObject().put("question", "How long do refunds take?").encode())
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
                    finalSeen[0] = frame.contains("event: final");
                    ids.tryComplete(seen);
                  }
                }
              }
            });
            resp.endHandler(v -> ids.tryComplete(seen));
            vertx.setTimer(2_000, t -> resp.resume()); // ... and reads again later
          }));
      List<Long> got = await(ids.future());
      assertTrue(finalSeen[0], "the stream did not end with final");
      // enough volume to fill the socket buffers while the client was not reading (the model streamed it all
      // unless the machine was so slow that the LLM call timed out and the phase fell back)
      assertTrue(got.size() > tokens, "only " + got.size() + " events");
      for (int i = 0; i < got.size(); i++) {
        assertEquals(i + 1, got.get(i), "event " + i);
      }
      assertTrue(buf.length() == 0 || !buf.toString().contains("id: "));
      // quiet: no per-event warnings from a paused consumer; at most one relay line for the stream
      assertTrue(warnings.isEmpty(), warnings.toString());
      assertTrue(relayLog.size() <= 1, relayLog.toString());
    } finally {
      java.util.logging.Logger.getLogger("").removeHandler(capture);
      await(vertx.close());
    }
  }
}
