package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Ingestion jobs outlive the process: a finished job answers the same after a restart, and a job the previous
 * process left running (as after {@code kill -9}) answers {@code interrupted}, its stored documents listed and
 * still stored. SQLite here, PostgreSQL in {@link PgJobPersistenceTest}.
 */
class JobPersistenceTest {

  private Vertx vertx;
  private ArgusConfig conf;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
    conf = configure(embeddings.configure(TestApp.config(TestApp.tempDataDir())));
  }

  /** The service's configuration; a subclass runs the same tests on another store. */
  protected ArgusConfig configure(ArgusConfig base) {
    return base;
  }

  protected void released() {
  }

  @AfterEach
  void tearDown() {
    await(vertx.close());
    released();
  }

  private static WebClient client(Vertx vertx, TestApp app) {
    return WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @Test
  void aFinishedJobAnswersTheSameAfterARestart() {
    TestApp first = await(TestApp.start(vertx, conf));
    HttpResponse<Buffer> r = await(client(vertx, first).post("/api/documents").putHeader("Content-Type",
        "application/json").sendBuffer(new JsonObject().put("id", "kept").put("title", "Kept")
        .put("text", "This document and its job outlive the process.").toBuffer()));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    await(first.stop());

    TestApp second = await(TestApp.start(vertx, conf));
    HttpResponse<Buffer> again = await(client(vertx, second).get("/api/ingest/jobs/" + job.getString("jobId")).send());
    assertEquals(200, again.statusCode(), again.bodyAsString());
    assertEquals(job, again.bodyAsJsonObject());
    await(second.stop());
  }

  @Test
  void aJobLeftRunningIsInterruptedAtTheNextStart() {
    TestApp first = await(TestApp.start(vertx, conf));
    HttpResponse<Buffer> stored = await(client(vertx, first).post("/api/documents").putHeader("Content-Type",
        "application/json").sendBuffer(new JsonObject().put("id", "half-1").put("title", "Half")
        .put("text", "Stored before the kill.").toBuffer()));
    assertEquals(201, stored.statusCode());
    await(first.stop());
    // what kill -9 leaves: the job's last record says running, one of its two documents stored
    String jobId = UUID.randomUUID().toString();
    Database db = await(Database.open(vertx, conf));
    await(JobStore.of(db).save(new JsonObject().put("jobId", jobId).put("status", "running").put("total", 2)
        .put("processed", 1).put("created", 1).put("replaced", 0).put("unchanged", 0).put("failed", 0)
        .put("documents", new JsonArray().add(new JsonObject().put("id", "half-1").put("outcome", "created")
            .put("chunks", 1)))
        .put("createdAt", Instant.now().toString()).put("startedAt", Instant.now().toString()).put("lastEventId", 3)));
    await(db.close());

    TestApp second = await(TestApp.start(vertx, conf));
    WebClient client = client(vertx, second);
    JsonObject job = await(client.get("/api/ingest/jobs/" + jobId).send()).bodyAsJsonObject();
    assertEquals("interrupted", job.getString("status"), job.encode());
    assertNotNull(job.getString("finishedAt"));
    assertEquals(1, job.getJsonArray("documents").size());
    assertEquals(200, await(client.get("/api/documents/half-1").send()).statusCode(), "stored documents stay");
    List<IngestTestSupport.SseEvent> events = await(IngestTestSupport.readSse(vertx, second.port(),
        "/api/ingest/jobs/" + jobId + "/events", e -> "done".equals(e.event())));
    assertEquals("done", events.get(events.size() - 1).event(), "an interrupted job's stream ends at once");
    assertEquals("interrupted", events.get(events.size() - 1).json().getString("status"));
    await(second.stop());
  }
}
