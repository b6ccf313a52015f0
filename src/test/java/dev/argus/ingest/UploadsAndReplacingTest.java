package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.RawHttp;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Uploads never collide across namespaces and replace a stored document only when the caller asked; a multi-file
 * upload or a JSONL batch stores its good parts and reports each bad one; a finished job's event stream ends for
 * good (a {@code retry} hint, 204 on reconnection, {@code HEAD} without a stream). Real service, real HTTP, a fake
 * embedding provider.
 */
class UploadsAndReplacingTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir())).with("ingest", "maxFileBytes", 2048);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  private static JsonObject upload(String query, MultipartForm form) {
    HttpResponse<Buffer> r = await(client.post("/api/documents" + query).sendMultipartForm(form));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  private static JsonObject postJson(String path, JsonObject body) {
    HttpResponse<Buffer> r = await(client.post(path).putHeader("Content-Type", "application/json")
        .sendBuffer(body.toBuffer()));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  private static JsonObject document(String id) {
    HttpResponse<Buffer> r = await(client.get("/api/documents/" + id).send());
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  private static JsonObject outcome(JsonObject job, int i) {
    return job.getJsonArray("documents").getJsonObject(i);
  }

  private static MultipartForm file(String namespace, String name, String content) {
    return MultipartForm.create().attribute("namespace", namespace)
        .textFileUpload("file", name, Buffer.buffer(content), "text/plain");
  }

  @Test
  void theSameFileNameInTwoNamespacesMakesTwoDocuments() {
    JsonObject a = upload("", file("team-a", "notes.txt", "Team A notes about refund abuse."));
    JsonObject b = upload("", file("team-b", "notes.txt", "Team B notes about mule accounts."));
    assertEquals("team-a:notes", outcome(a, 0).getString("id"));
    assertEquals("team-b:notes", outcome(b, 0).getString("id"));
    assertEquals("created", outcome(b, 0).getString("outcome"), "team-b's upload replaced nothing");
    assertEquals("Team A notes about refund abuse.", document("team-a:notes").getString("text"));
    assertEquals("team-a", document("team-a:notes").getString("namespace"));
    assertEquals("Team B notes about mule accounts.", document("team-b:notes").getString("text"));
  }

  @Test
  void anIdDerivedFromAFileNameReplacesOnlyWhenAsked() {
    postJson("/api/documents", new JsonObject().put("id", "policy-refund").put("title", "Refund policy")
        .put("text", "Refunds need a tracking number."));
    JsonObject refused = upload("", file("default", "policy-refund.txt", "Everything is refundable."));
    assertEquals("failed", outcome(refused, 0).getString("outcome"));
    assertTrue(outcome(refused, 0).getString("error").contains("replace=true"), refused.encode());
    assertEquals("Refunds need a tracking number.", document("policy-refund").getString("text"), "the policy stays");

    JsonObject same = upload("", file("default", "other-name.txt", "Unrelated."));
    assertEquals("created", outcome(same, 0).getString("outcome"));

    JsonObject asked = upload("", file("default", "policy-refund.txt", "Everything is refundable.")
        .attribute("replace", "true"));
    assertEquals("replaced", outcome(asked, 0).getString("outcome"), asked.encode());
    assertEquals("Everything is refundable.", document("policy-refund").getString("text"));
    JsonObject again = upload("", file("default", "policy-refund.txt", "Everything is refundable."));
    assertEquals("unchanged", outcome(again, 0).getString("outcome"), "the same content is never a conflict");
  }

  @Test
  void anExplicitIdReplacesUnlessReplaceIsFalse() {
    JsonObject v1 = new JsonObject().put("id", "exp-1").put("title", "Explicit").put("text", "Version one.");
    postJson("/api/documents", v1);
    assertEquals("replaced", outcome(postJson("/api/documents", v1.copy().put("text", "Version two.")), 0)
        .getString("outcome"));
    JsonObject refused = postJson("/api/documents?replace=false", v1.copy().put("text", "Version three."));
    assertEquals("failed", outcome(refused, 0).getString("outcome"));
    assertEquals("Version two.", document("exp-1").getString("text"));
  }

  @Test
  void anIdHeldInAnotherNamespaceIsNeverTakenOver() {
    postJson("/api/documents", new JsonObject().put("id", "shared-id").put("title", "A").put("namespace", "ns-a")
        .put("text", "Belongs to namespace a."));
    JsonObject taken = postJson("/api/documents?replace=true", new JsonObject().put("id", "shared-id")
        .put("title", "B").put("namespace", "ns-b").put("text", "Wants to move it to b."));
    assertEquals("failed", outcome(taken, 0).getString("outcome"));
    assertTrue(outcome(taken, 0).getString("error").contains("namespace 'ns-a'"), taken.encode());
    JsonObject kept = document("shared-id");
    assertEquals("ns-a", kept.getString("namespace"));
    assertEquals("Belongs to namespace a.", kept.getString("text"));
  }

  @Test
  void aMultiFileUploadStoresTheGoodFilesAndReportsEachBadOne() {
    MultipartForm form = MultipartForm.create().attribute("namespace", "t-mixed")
        .textFileUpload("file", "ok.txt", Buffer.buffer("A good file."), "text/plain")
        .binaryFileUpload("file", "scan.pdf", Buffer.buffer("%PDF-1.4"), "application/pdf")
        .textFileUpload("file", "empty.md", Buffer.buffer("  \n"), "text/markdown")
        .textFileUpload("file", "big.txt", Buffer.buffer("x ".repeat(1500)), "text/plain")
        .textFileUpload("file", "bin.txt", Buffer.buffer("bin\u0000ary"), "text/plain")
        .textFileUpload("file", "mixed.jsonl", Buffer.buffer("{\"id\":\"m-1\",\"title\":\"M\",\"text\":\"Good line.\"}\n"
            + "{broken\n"), "application/x-ndjson");
    JsonObject job = upload("", form);
    assertEquals(2, job.getInteger("created"), job.encode());
    assertEquals(5, job.getInteger("failed"), job.encode());
    assertEquals(7, job.getInteger("total"));
    assertEquals("completed", job.getString("status"), "some documents were stored");
    String failures = job.getJsonArray("documents").stream().map(JsonObject.class::cast)
        .filter(o -> o.getString("outcome").equals("failed")).map(o -> o.getString("error")).toList().toString();
    for (String named : new String[] {"scan.pdf", "empty.md", "big.txt", "bin.txt", "mixed.jsonl line 2"}) {
      assertTrue(failures.contains(named), named + " in " + failures);
    }
    assertEquals("A good file.", document("t-mixed:ok").getString("text"));
    assertEquals("Good line.", document("m-1").getString("text"));
  }

  @Test
  void aJsonlBodyStoresItsGoodLinesAndReportsTheBadOnes() {
    HttpResponse<Buffer> r = await(client.post("/api/documents").putHeader("Content-Type", "application/x-ndjson")
        .sendBuffer(Buffer.buffer("{\"id\":\"jl-1\",\"title\":\"One\",\"text\":\"First.\"}\n[1]\n"
            + "{\"id\":\"jl-3\",\"title\":\"Three\",\"text\":\"Third.\"}\n")));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals(2, job.getInteger("created"));
    assertEquals(1, job.getInteger("failed"));
    assertEquals("body line 2", outcome(job, 0).getString("id"), "rejected lines are reported first");
    assertEquals(200, await(client.get("/api/documents/jl-3").send()).statusCode());
  }

  @Test
  void aFinishedJobStreamEndsForGood() throws IOException {
    JsonObject job = postJson("/api/documents", new JsonObject().put("id", "sse-end").put("title", "T")
        .put("text", "Streams end."));
    String path = "/api/ingest/jobs/" + job.getString("jobId") + "/events";
    long last = job.getLong("lastEventId");
    String get = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n";

    RawHttp.Response first = RawHttp.exchange(app.port(), get + "\r\n");
    assertEquals(200, first.status());
    assertTrue(first.body().contains("retry: 5000\n"), "a reconnection hint: " + first.body());
    assertTrue(first.body().contains("id: " + last + "\nevent: done\n"), first.body());

    RawHttp.Response reconnect = RawHttp.exchange(app.port(), get + "Last-Event-ID: " + last + "\r\n\r\n");
    assertEquals(204, reconnect.status(), "EventSource stops on 204: " + reconnect.body());
    RawHttp.Response behind = RawHttp.exchange(app.port(), get + "Last-Event-ID: " + (last - 1) + "\r\n\r\n");
    assertEquals(200, behind.status());
    assertTrue(behind.body().contains("event: done"), "a client that missed done still gets it");

    List<LogRecord> severe = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
          severe.add(record);
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger.getLogger("").addHandler(capture);
    try (RawHttp head = new RawHttp(app.port())) {
      head.send("HEAD " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
      RawHttp.Response r = head.read(true);
      assertEquals(200, r.status());
      assertTrue(r.header("content-type").startsWith("text/event-stream"));
      head.send("GET /api/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n");
      assertEquals(200, head.read().status(), "HEAD opened no stream: the connection is free again");
    } finally {
      Logger.getLogger("").removeHandler(capture);
    }
    assertTrue(severe.isEmpty(), "no failure behind the HEAD answer: " + severe.stream()
        .map(rec -> rec.getMessage() + " " + rec.getThrown()).toList());
  }

  @Test
  void theReplaceParameterIsValidated() {
    HttpResponse<Buffer> r = await(client.post("/api/documents?replace=yes").putHeader("Content-Type",
        "application/json").sendBuffer(new JsonObject().put("title", "T").put("text", "x").toBuffer()));
    IngestTestSupport.assertError(r, 400, "invalid_parameter", "replace");
  }
}
