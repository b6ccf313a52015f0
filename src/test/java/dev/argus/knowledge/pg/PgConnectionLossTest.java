package dev.argus.knowledge.pg;

import dev.argus.config.ArgusConfig;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL drops Argus's connections under load (every backend of its database terminated, again and again, as a
 * server restart does) while ingestion jobs, searches and chats run. Without restarting Argus: every request answers
 * (2xx, or a clean 503 JSON body), every job and chat ends, every stored document is whole, and once the
 * connections are left alone requests succeed again.
 */
class PgConnectionLossTest {

  private Vertx vertx;
  private PgTestDatabase pg;
  private TestApp app;
  private WebClient client;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
    ArgusConfig conf = pg.serve(embeddings.configure(TestApp.config(TestApp.tempDataDir())))
        .with("ingest", "asyncThresholdBytes", 0)
        .with("ingest", "chunkTargetChars", 80)
        .with("ingest", "chunkMaxChars", 160)
        .with("ingest", "overlapSentences", 0);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterEach
  void tearDown() {
    // known limit (README): a stop right after the outage may fail on a pooled connection PostgreSQL had closed;
    // what this test asserts is the service's behaviour while running, so the stop's outcome is not checked
    app.stop().otherwiseEmpty().toCompletionStage().toCompletableFuture().join();
    await(vertx.close());
    pg.close();
  }

  private static JsonObject batch(int job) {
    JsonArray docs = new JsonArray();
    for (int d = 0; d < 8; d++) {
      StringBuilder text = new StringBuilder();
      for (int s = 0; s < 6; s++) {
        text.append("Sentence ").append(s).append(" of document ").append(d).append(" in job ").append(job)
            .append(" about chargeback refunds and seller payouts. ");
      }
      docs.add(new JsonObject().put("id", "loss-" + job + "-" + d).put("title", "Loss " + job + "/" + d)
          .put("text", text.toString()));
    }
    return new JsonObject().put("documents", docs);
  }

  /** A response is clean when it is a success or a 503 with a JSON {error, code} body. */
  private static String unclean(HttpResponse<Buffer> r) {
    if (r.statusCode() < 300) {
      return null;
    }
    try {
      JsonObject body = r.bodyAsJsonObject();
      if (r.statusCode() == 503 && body.getString("error") != null && body.getString("code") != null) {
        return null;
      }
    } catch (RuntimeException e) {
      // not JSON
    }
    return r.statusCode() + " " + r.bodyAsString();
  }

  @Test
  void connectionsTerminatedUnderLoadLeaveNoPartialWriteAndArgusRecoversWithoutARestart() throws Exception {
    AtomicBoolean killing = new AtomicBoolean(true);
    AtomicInteger kills = new AtomicInteger();
    Thread killer = new Thread(() -> {
      while (killing.get()) {
        pg.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            + " AND pid <> pg_backend_pid()");
        kills.incrementAndGet();
        try {
          Thread.sleep(150);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "pg-killer");
    killer.start();
    List<String> jobs = new ArrayList<>();
    List<String> unclean = new ArrayList<>();
    int answered = 0;
    try {
      for (int round = 0; round < 6; round++) {
        HttpResponse<Buffer> submitted = await(client.post("/api/documents").putHeader("Content-Type",
            "application/json").sendBuffer(batch(round).toBuffer()));
        if (submitted.statusCode() == 202) {
          jobs.add(submitted.bodyAsJsonObject().getString("jobId"));
        }
        HttpResponse<Buffer> search = await(client.post("/api/search").putHeader("Content-Type", "application/json")
            .sendBuffer(new JsonObject().put("query", "chargeback refunds in job " + round).toBuffer()));
        HttpResponse<Buffer> chat = await(client.post("/api/chat").putHeader("Content-Type", "application/json")
            .sendBuffer(new JsonObject().put("question", "How are chargeback refunds handled in job " + round + "?")
                .toBuffer()));
        HttpResponse<Buffer> list = await(client.get("/api/documents?limit=5").send());
        for (HttpResponse<Buffer> r : List.of(submitted, search, chat, list)) {
          answered++;
          String bad = unclean(r);
          if (bad != null) {
            unclean.add(bad);
          }
        }
        if (chat.statusCode() == 200) {
          String stream = chat.bodyAsString();
          assertTrue(stream.contains("event: final") || stream.contains("event: error"),
              "every chat ends with final or error: " + stream);
        }
      }
    } finally {
      killing.set(false);
      killer.join();
    }
    assertTrue(kills.get() >= 3, "the connections were terminated several times: " + kills.get());
    // 6 rounds x 4 requests, each answered (await fails on a hang) and clean
    assertEquals(24, answered);
    assertEquals(List.of(), unclean, "only successes and clean 503s under connection loss");

    // recovery without a restart: a new document is stored and found
    long recoveryStart = System.currentTimeMillis();
    HttpResponse<Buffer> after = null;
    for (int i = 0; i < 50; i++) {
      after = await(client.post("/api/documents?wait=true").putHeader("Content-Type", "application/json")
          .sendBuffer(new JsonObject().put("id", "after-loss").put("title", "After").put("text",
              "Written once PostgreSQL is reachable again.").toBuffer()));
      if (after.statusCode() == 201) {
        break;
      }
      Thread.sleep(200);
    }
    assertEquals(201, after.statusCode(), after.bodyAsString());
    assertTrue(System.currentTimeMillis() - recoveryStart < 10_000, "recovered within 10 s");
    assertEquals(200, await(client.post("/api/search").putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("query", "reachable again").toBuffer())).statusCode());

    // every job ends; every document is whole (chunks 0..n-1 of n = chunkCount) or absent
    for (String job : jobs) {
      JsonObject j = null;
      for (int i = 0; i < 150; i++) {
        j = await(client.get("/api/ingest/jobs/" + job).send()).bodyAsJsonObject();
        if (!"running".equals(j.getString("status")) && !"queued".equals(j.getString("status"))) {
          break;
        }
        Thread.sleep(200);
      }
      assertTrue("completed".equals(j.getString("status")) || "failed".equals(j.getString("status")), j.encode());
      for (Object o : j.getJsonArray("documents")) {
        JsonObject outcome = (JsonObject) o;
        HttpResponse<Buffer> doc = await(client.get("/api/documents/" + outcome.getString("id")).send());
        if ("failed".equals(outcome.getString("outcome"))) {
          assertEquals(404, doc.statusCode(), "a failed document leaves nothing: " + outcome.encode());
          continue;
        }
        assertEquals(200, doc.statusCode(), outcome.encode());
        JsonObject stored = doc.bodyAsJsonObject();
        JsonArray chunks = stored.getJsonArray("chunks");
        assertEquals(stored.getInteger("chunkCount"), chunks.size(), stored.getString("id"));
        for (int k = 0; k < chunks.size(); k++) {
          assertEquals(k, chunks.getJsonObject(k).getInteger("index"));
          assertEquals(chunks.size(), chunks.getJsonObject(k).getInteger("total"));
        }
      }
    }
  }
}
