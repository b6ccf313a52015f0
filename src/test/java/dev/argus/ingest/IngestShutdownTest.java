package dev.argus.ingest;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stopping the service during a job lets the document in flight finish, marks the rest failed with reason
 * "shutdown", and leaves nothing half-written: after a restart every document of the job is either whole or absent.
 */
class IngestShutdownTest {

  @Test
  void gracefulStopDuringAJob() {
    Vertx vertx = Vertx.vertx();
    try {
      FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
      embeddings.delayEach(300);
      Path data = TestApp.tempDataDir();
      ArgusConfig conf = embeddings.configure(TestApp.config(data))
          .with("ingest", "asyncThresholdBytes", 0)
          .with("ingest", "embedBatchSize", 1)
          .with("ingest", "chunkTargetChars", 60)
          .with("ingest", "chunkMaxChars", 120)
          .with("ingest", "overlapSentences", 0)
          .with("embedding", "batchSize", 1);
      TestApp app = await(TestApp.start(vertx, conf));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      JsonArray docs = new JsonArray();
      for (int i = 0; i < 6; i++) {
        docs.add(new JsonObject().put("id", "stop-" + i).put("title", "Doc " + i).put("text",
            "First sentence of document " + i + " here. Second sentence of document " + i + " here."));
      }
      HttpResponse<Buffer> r = await(client.post("/api/documents").putHeader("Content-Type", "application/json")
          .sendBuffer(new JsonObject().put("documents", docs).toBuffer()));
      assertEquals(202, r.statusCode(), r.bodyAsString());
      String jobId = r.bodyAsJsonObject().getString("jobId");

      Promise<Void> firstDocument = Promise.promise();
      Promise<JsonObject> done = Promise.promise();
      vertx.eventBus().<JsonObject>consumer(Addresses.ingestJobEvents(jobId), msg -> {
        JobEvent e = JobEvent.fromJson(msg.body());
        if (e.type().equals(JobEvent.DOCUMENT)) {
          firstDocument.tryComplete();
        } else if (e.type().equals(JobEvent.DONE)) {
          done.tryComplete(e.data());
        }
      });
      await(firstDocument.future());
      int requestsAtStop = embeddings.requestCount();
      await(app.stop()); // completes only after the in-flight document is finished
      JsonObject job = await(done.future());
      assertEquals("failed", job.getString("status"), job.encode());
      int created = job.getInteger("created");
      assertTrue(created >= 1 && created < 6, "stopped mid-job: " + job.encode());
      assertEquals(6, job.getInteger("processed"));
      assertEquals(6 - created, job.getInteger("failed"));
      for (Object o : job.getJsonArray("documents")) {
        JsonObject d = (JsonObject) o;
        if (d.getString("outcome").equals("failed")) {
          assertTrue(d.getString("error").endsWith("shutdown"), d.encode());
        }
      }
      assertTrue(embeddings.requestCount() - requestsAtStop <= 2, "no new document was started after the stop");

      TestApp again = await(TestApp.start(vertx, conf));
      WebClient client2 = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(again.port()));
      assertEquals(created, await(client2.get("/api/documents").send()).bodyAsJsonObject().getLong("total"));
      for (Object o : job.getJsonArray("documents")) {
        JsonObject d = (JsonObject) o;
        HttpResponse<Buffer> doc = await(client2.get("/api/documents/" + d.getString("id")).send());
        if (d.getString("outcome").equals("created")) {
          assertEquals(200, doc.statusCode());
          assertEquals(2, doc.bodyAsJsonObject().getJsonArray("chunks").size(), "whole: both chunks");
          assertEquals(2, doc.bodyAsJsonObject().getInteger("chunkCount"));
        } else {
          assertEquals(404, doc.statusCode(), "nothing half-written of " + d.getString("id"));
        }
      }
      await(again.stop());
    } finally {
      await(vertx.close());
    }
  }
}
