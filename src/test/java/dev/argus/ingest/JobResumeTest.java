package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.FakeReply;
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

import java.util.ArrayList;
import java.util.List;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A job cut short by a crash is resumed at the next start. The crash is made real with a snapshot: while a job of
 * four documents runs in a first Vert.x instance (d1, d2 stored; d3's embedding held by the fake provider), the
 * job's record and kept request are read from the store — exactly what {@code kill -9} at that moment leaves —; the
 * instance is then closed and the snapshot written back over what its orderly stop recorded. A second Vert.x
 * instance on the same SQLite file must finish the job: every document stored once and whole, none twice.
 */
class JobResumeTest {

  private static final String HOLD = "held-by-the-provider";

  private Vertx vertx;
  private FakeEmbeddingServer embeddings;
  private volatile boolean holding = true;
  private ArgusConfig conf;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    // d3's embedding is held past the provider timeout (3 s) while `holding`, so the first instance never stores it
    embeddings.respondWith(r -> holding && r.body().encode().contains(HOLD) ? FakeReply.answer().delay(10_000)
        : FakeReply.answer());
    conf = embeddings.configure(TestApp.config(TestApp.tempDataDir()))
        .with("embedding", "timeoutMs", 3_000)
        .with("ingest", "embedBatchSize", 1) // one document's chunk per call: d3 is held alone
        .with("ingest", "asyncThresholdBytes", 0); // 202 at once, the job runs in the background
  }

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  private static WebClient client(Vertx vertx, int port) {
    return WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
  }

  private static JsonObject doc(String id, String text) {
    return new JsonObject().put("id", id).put("title", "Resume " + id).put("text", text);
  }

  @Test
  void aJobCutShortByACrashIsResumedAndEveryDocumentIsStoredOnce() throws Exception {
    Vertx firstVertx = Vertx.vertx();
    TestApp first = await(TestApp.start(firstVertx, conf));
    WebClient c1 = client(firstVertx, first.port());
    JsonObject body = new JsonObject().put("documents", new JsonArray()
        .add(doc("d1", "Refunds are paid within ten days."))
        .add(doc("d2", "Chargebacks are reviewed by an analyst."))
        .add(doc("d3", "Sellers are verified before payout. " + HOLD))
        .add(doc("d4", "Devices shared by many accounts raise the risk score.")));
    HttpResponse<Buffer> accepted = await(c1.post("/api/documents").putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()));
    assertEquals(202, accepted.statusCode(), accepted.bodyAsString());
    String jobId = accepted.bodyAsJsonObject().getString("jobId");

    // wait for the record that lists d1 and d2 (progress is recorded about once a second): the crash moment
    JobStore liveStore = JobStore.of(first.main().services().database());
    JobStore.Unfinished crash = null;
    for (int i = 0; i < 100 && crash == null; i++) {
      for (JobStore.Unfinished u : await(liveStore.unfinished())) {
        if (u.job().getString("jobId").equals(jobId) && u.job().getInteger("processed") == 2) {
          crash = u;
        }
      }
      Thread.sleep(100);
    }
    assertTrue(crash != null, "the job's record never listed d1 and d2");
    assertEquals("running", crash.job().getString("status"));
    assertEquals(4, crash.request().getJsonArray("documents").size(), "the whole request is kept");
    // a crash just after d2 was written but before a record listed it: the record lists d1 only
    JsonObject record = crash.job().copy().put("processed", 1).put("created", 1)
        .put("documents", new JsonArray().add(crash.job().getJsonArray("documents").getJsonObject(0)));
    await(firstVertx.close()); // its orderly stop fails d3 (provider timeout) and records the job failed
    holding = false;

    Database db = await(Database.open(vertx, conf));
    await(JobStore.of(db).create(record, crash.request())); // back to what kill -9 would have left
    await(db.close());

    Vertx secondVertx = Vertx.vertx();
    try {
      TestApp second = await(TestApp.start(secondVertx, conf));
      WebClient c2 = client(secondVertx, second.port());
      JsonObject job = null;
      for (int i = 0; i < 100; i++) {
        job = await(c2.get("/api/ingest/jobs/" + jobId).send()).bodyAsJsonObject();
        if (!"running".equals(job.getString("status")) && !"queued".equals(job.getString("status"))) {
          break;
        }
        Thread.sleep(100);
      }
      assertEquals("completed", job.getString("status"), job.encode());
      assertEquals(1, job.getInteger("resumed"), job.encode());
      // 4 documents: d1 from the record (created), d2 found stored with the same content hash (unchanged: written
      // before the crash, after the last record), d3 and d4 created by the resume → 3 created + 1 unchanged, 0 failed
      assertEquals(4, job.getInteger("processed"));
      assertEquals(3, job.getInteger("created"), job.encode());
      assertEquals(1, job.getInteger("unchanged"), job.encode());
      assertEquals(0, job.getInteger("failed"), job.encode());
      List<String> outcomes = new ArrayList<>();
      job.getJsonArray("documents").forEach(d -> outcomes.add(((JsonObject) d).getString("id") + ":"
          + ((JsonObject) d).getString("outcome")));
      assertEquals(List.of("d1:created", "d2:unchanged", "d3:created", "d4:created"), outcomes);

      JsonObject page = await(c2.get("/api/documents?limit=100").send()).bodyAsJsonObject();
      assertEquals(4, page.getInteger("total"), "each document once: " + page.encode());
      for (String id : List.of("d1", "d2", "d3", "d4")) {
        JsonObject stored = await(c2.get("/api/documents/" + id).send()).bodyAsJsonObject();
        JsonArray chunks = stored.getJsonArray("chunks");
        assertEquals(1, chunks.size(), id + " is one short chunk, whole: " + stored.encode());
        assertEquals(0, chunks.getJsonObject(0).getInteger("index"));
        assertEquals(1, chunks.getJsonObject(0).getInteger("total"));
      }
      // the finished job keeps no request: a third start resumes nothing
      await(second.stop());
      Database after = await(Database.open(vertx, conf));
      assertEquals(List.of(), await(JobStore.of(after).unfinished()));
      await(after.close());
    } finally {
      await(secondVertx.close());
    }
  }

  @Test
  void aJobCutShortByEveryResumeWithoutProgressIsMarkedInterrupted() {
    Database db = await(Database.open(vertx, conf));
    JobStore store = JobStore.of(db);
    JsonObject record = new JsonObject().put("jobId", "poison-job").put("status", "running").put("total", 1)
        .put("processed", 0).put("created", 0).put("replaced", 0).put("unchanged", 0).put("failed", 0)
        .put("documents", new JsonArray()).put("createdAt", "2026-11-25T10:00:00Z").put("lastEventId", 2);
    JsonObject request = new IngestRequest(List.of(SourceDocument.fromApi(doc("p1", "Never stored."), "default",
        "document 1", 10_000)), false).toJson();
    await(store.create(record, request));
    // three resumes in a row, each cut short before the job's record moved past 0 processed
    await(store.resuming("poison-job", IngestVerticle.MAX_RESUMES, 0));
    // as many resumes, but its record moved from 0 to 1 processed since the last one: resumed again
    JsonObject moving = record.copy().put("jobId", "moving-job").put("total", 2).put("processed", 1)
        .put("failed", 1).put("documents", new JsonArray().add(DocumentOutcome.failed("m1", "test").toJson()));
    await(store.create(moving, new IngestRequest(List.of(
        SourceDocument.fromApi(doc("m1", "Failed before."), "default", "document 1", 10_000),
        SourceDocument.fromApi(doc("m2", "Stored by the resume."), "default", "document 2", 10_000)), false).toJson()));
    await(store.resuming("moving-job", IngestVerticle.MAX_RESUMES, 0));
    await(db.close());

    Vertx restarted = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(restarted, conf));
      JsonObject job = await(client(restarted, app.port()).get("/api/ingest/jobs/poison-job").send())
          .bodyAsJsonObject();
      assertEquals("interrupted", job.getString("status"), job.encode());
      assertTrue(job.getString("error").contains("resumed 3 times without progress"), job.getString("error"));
      assertEquals(404, await(client(restarted, app.port()).get("/api/documents/p1").send()).statusCode());
      JsonObject resumed = null;
      for (int i = 0; i < 100; i++) {
        resumed = await(client(restarted, app.port()).get("/api/ingest/jobs/moving-job").send()).bodyAsJsonObject();
        if ("completed".equals(resumed.getString("status"))) {
          break;
        }
        sleep(100);
      }
      // m1 failed before the crash (kept as recorded), m2 created by the resume: 2 processed, 1 created, 1 failed
      assertEquals("completed", resumed.getString("status"), resumed.encode());
      assertEquals(1, resumed.getInteger("created"), resumed.encode());
      assertEquals(1, resumed.getInteger("failed"), resumed.encode());
      assertEquals(200, await(client(restarted, app.port()).get("/api/documents/m2").send()).statusCode());
      await(app.stop());
    } finally {
      await(restarted.close());
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
