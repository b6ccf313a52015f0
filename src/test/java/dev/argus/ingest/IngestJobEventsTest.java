package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.ingest.IngestTestSupport.SseEvent;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.ingest.IngestTestSupport.await;
import static dev.argus.ingest.IngestTestSupport.readSse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Large inputs answer 202 at once; the job's progress is read over SSE by a real HTTP client. */
class IngestJobEventsTest {

  private static Vertx vertx;
  private static FakeEmbeddingServer embeddings;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    embeddings.delayEach(150);
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir()))
        .with("ingest", "asyncThresholdBytes", 100)
        .with("ingest", "embedBatchSize", 1);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  private static String jsonl(String prefix, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(new JsonObject().put("id", prefix + i).put("title", "Doc " + i).put("namespace", "t-sse")
          .put("text", "Synthetic identity pattern number " + i + ". It combines real and fake data.").encode()).append('\n');
    }
    return sb.toString();
  }

  @Test
  void largeInputAnswers202AndStreamsProgressUntilDone() {
    HttpResponse<Buffer> r = await(client.post("/api/documents").putHeader("Content-Type", "application/x-ndjson")
        .sendBuffer(Buffer.buffer(jsonl("sse-", 5))));
    assertEquals(202, r.statusCode(), r.bodyAsString());
    JsonObject queued = r.bodyAsJsonObject();
    assertEquals("queued", queued.getString("status"));
    assertEquals(5, queued.getInteger("total"));
    String jobId = queued.getString("jobId");
    assertNotNull(jobId);

    List<SseEvent> events = await(readSse(vertx, app.port(), "/api/ingest/jobs/" + jobId + "/events",
        e -> "done".equals(e.event())));
    SseEvent first = events.get(0);
    assertEquals("progress", first.event(), "a snapshot first");
    SseEvent last = events.get(events.size() - 1);
    assertEquals("done", last.event());
    long previous = -1;
    for (SseEvent e : events) {
      long id = Long.parseLong(e.id());
      assertTrue(id > previous, "event ids increase: " + events);
      previous = id;
    }
    long documentEvents = events.stream().filter(e -> "document".equals(e.event())).count();
    assertEquals(5, first.json().getInteger("processed") + documentEvents,
        "every document is either in the snapshot or has its own event");
    assertTrue(documentEvents >= 3, "the client connected while the job ran: " + documentEvents);
    for (SseEvent e : events) {
      if ("document".equals(e.event())) {
        assertEquals("created", e.json().getString("outcome"));
        assertTrue(e.json().getString("id").startsWith("sse-"));
      }
    }
    int processed = -1;
    for (SseEvent e : events) {
      if ("progress".equals(e.event())) {
        assertTrue(e.json().getInteger("processed") >= processed);
        processed = e.json().getInteger("processed");
      }
    }
    JsonObject done = last.json();
    assertEquals("completed", done.getString("status"));
    assertEquals(5, done.getInteger("created"));
    assertEquals(5, done.getJsonArray("documents").size());

    JsonObject status = await(client.get("/api/ingest/jobs/" + jobId).send()).bodyAsJsonObject();
    assertEquals("completed", status.getString("status"));
    assertEquals(5, status.getInteger("processed"));

    List<SseEvent> late = await(readSse(vertx, app.port(), "/api/ingest/jobs/" + jobId + "/events", e -> false));
    assertEquals(1, late.size(), "a client connecting after the end gets the final event at once: " + late);
    assertEquals("done", late.get(0).event());
    assertEquals(last.id(), late.get(0).id());
    assertEquals(5, late.get(0).json().getInteger("created"));
  }

  @Test
  void waitTrueAnswers201WithTheFinishedJob() {
    HttpResponse<Buffer> r = await(client.post("/api/documents?wait=true").putHeader("Content-Type",
        "application/x-ndjson").sendBuffer(Buffer.buffer(jsonl("wait-", 2))));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    assertEquals("completed", r.bodyAsJsonObject().getString("status"));
    assertEquals(2, r.bodyAsJsonObject().getInteger("created"));
  }
}
