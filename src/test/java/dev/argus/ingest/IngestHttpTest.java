package dev.argus.ingest;

import dev.argus.bus.Addresses;
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
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.argus.ingest.IngestTestSupport.assertError;
import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ingestion and documents over real HTTP against the whole service (real SQLite file, fake embedding server). */
class IngestHttpTest {

  private static Vertx vertx;
  private static FakeEmbeddingServer embeddings;
  private static TestApp app;
  private static WebClient client;
  private static final List<JsonObject> changes = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir()))
        .with("ingest", "chunkTargetChars", 200)
        .with("ingest", "chunkMaxChars", 400)
        .with("ingest", "overlapSentences", 1)
        .with("ingest", "maxFileBytes", 2048)
        .with("ingest", "embedBatchSize", 4)
        .with("http", "maxBodyBytes", 65_536);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    vertx.eventBus().<JsonObject>consumer(Addresses.KNOWLEDGE_CHANGED, msg -> changes.add(msg.body()));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static String longText(String topic, int sentences) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sentences; i++) {
      sb.append("The ").append(topic).append(" review found signal number ").append(i)
          .append(" across several merchant accounts. ");
    }
    return sb.toString().strip();
  }

  private static HttpResponse<Buffer> postJson(String path, Object body) {
    return await(client.post(path).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(body instanceof JsonObject o ? o.encode() : body.toString())));
  }

  private static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  private static long total(String namespace) {
    HttpResponse<Buffer> r = get("/api/documents?namespace=" + namespace);
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject().getLong("total");
  }

  @Test
  void jsonDocumentIsIngestedChunkedAndReadBack() {
    String text = longText("chargeback", 12);
    HttpResponse<Buffer> r = postJson("/api/documents", new JsonObject().put("id", "pol-1").put("title", "Chargebacks")
        .put("text", text).put("namespace", "t-json").put("source", "wiki")
        .put("metadata", new JsonObject().put("year", 2024).put("tags", new JsonArray().add("cb"))));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals("completed", job.getString("status"));
    assertEquals(1, job.getInteger("total"));
    assertEquals(1, job.getInteger("processed"));
    assertEquals(1, job.getInteger("created"));
    assertEquals(0, job.getInteger("failed"));
    assertNotNull(job.getString("startedAt"));
    assertNotNull(job.getString("finishedAt"));
    assertEquals("/api/ingest/jobs/" + job.getString("jobId"), r.getHeader("Location"));
    JsonObject outcome = job.getJsonArray("documents").getJsonObject(0);
    assertEquals("pol-1", outcome.getString("id"));
    assertEquals("created", outcome.getString("outcome"));
    int chunks = outcome.getInteger("chunks");
    // 12 sentences of ~75 chars, target 200 with one sentence of overlap -> several chunks
    assertTrue(chunks >= 5, "chunks: " + chunks);

    JsonObject doc = get("/api/documents/pol-1").bodyAsJsonObject();
    assertEquals(text, doc.getString("text"), "the parent document is kept whole");
    assertEquals("Chargebacks", doc.getString("title"));
    assertEquals("t-json", doc.getString("namespace"));
    assertEquals(2024, doc.getJsonObject("metadata").getInteger("year"));
    JsonArray list = doc.getJsonArray("chunks");
    assertEquals(chunks, list.size());
    for (int i = 0; i < list.size(); i++) {
      JsonObject c = list.getJsonObject(i);
      assertEquals(i, c.getInteger("index"));
      assertEquals(chunks, c.getInteger("total"));
      assertTrue(c.getString("text").length() <= 400);
      assertTrue(text.contains(c.getString("text")), "chunk text comes from the document");
    }
    assertTrue(changes.contains(new JsonObject().put("namespace", "t-json").put("documentId", "pol-1")
        .put("change", "upsert")), changes.toString());

    JsonObject neighbours = await(vertx.eventBus().<JsonObject>request(Addresses.CHUNK_NEIGHBOURS, new JsonObject()
        .put("documentId", "pol-1").put("index", 2).put("before", 1).put("after", 1))).body();
    assertEquals(List.of(1, 2, 3), neighbours.getJsonArray("chunks").stream()
        .map(c -> ((JsonObject) c).getInteger("index")).toList());
    assertEquals(list.getJsonObject(2).getString("text"),
        neighbours.getJsonArray("chunks").getJsonObject(1).getString("text"));

    JsonObject health = get("/api/health").bodyAsJsonObject();
    assertEquals("ready", health.getString("status"), health.encode());
    JsonObject store = health.getJsonObject("store");
    assertEquals("sqlite", store.getString("type"));
    assertTrue(store.getLong("documents") >= 1);
    assertEquals(FakeEmbeddingServer.MODEL, store.getJsonObject("embedder").getString("model"));
    assertEquals(FakeEmbeddingServer.DIMENSION, store.getJsonObject("embedder").getInteger("dimension"));

    JsonObject job2 = get("/api/ingest/jobs/" + job.getString("jobId")).bodyAsJsonObject();
    assertEquals("completed", job2.getString("status"));
    assertEquals(1, job2.getJsonArray("documents").size());
  }

  /** Read-after-write: every document is readable, and listed, right after its job answered. */
  @Test
  void everyDocumentIsReadableRightAfterItsJobAnswered() {
    for (int i = 0; i < 12; i++) {
      String id = "raw-" + i;
      HttpResponse<Buffer> r = postJson("/api/documents", new JsonObject().put("id", id).put("title", "R " + i)
          .put("namespace", "t-raw").put("text", "Read after write number " + i + "."));
      assertEquals(201, r.statusCode(), r.bodyAsString());
      assertEquals(200, get("/api/documents/" + id).statusCode(), "document " + id + " is visible after its job");
      assertEquals(i + 1, total("t-raw"), "listing sees all " + (i + 1) + " documents");
    }
  }

  @Test
  void sameDocumentTwiceIsUnchangedWithoutReembeddingAndNewContentReplaces() {
    JsonObject v1 = new JsonObject().put("id", "dedupe-1").put("title", "Mule accounts").put("namespace", "t-dedupe")
        .put("text", longText("oldmule", 6));
    assertEquals("created", postJson("/api/documents", v1).bodyAsJsonObject().getJsonArray("documents")
        .getJsonObject(0).getString("outcome"));
    int chunksV1 = get("/api/documents/dedupe-1").bodyAsJsonObject().getJsonArray("chunks").size();
    int requestsBefore = embeddings.requestCount();

    JsonObject again = postJson("/api/documents", v1).bodyAsJsonObject();
    assertEquals(1, again.getInteger("unchanged"));
    JsonObject outcome = again.getJsonArray("documents").getJsonObject(0);
    assertEquals("unchanged", outcome.getString("outcome"));
    assertEquals(chunksV1, outcome.getInteger("chunks"));
    assertEquals(requestsBefore, embeddings.requestCount(), "an unchanged document is not embedded again");

    JsonObject v2 = v1.copy().put("text", longText("newmule", 3));
    JsonObject replaced = postJson("/api/documents", v2).bodyAsJsonObject();
    assertEquals("replaced", replaced.getJsonArray("documents").getJsonObject(0).getString("outcome"));
    JsonObject doc = get("/api/documents/dedupe-1").bodyAsJsonObject();
    JsonArray chunks = doc.getJsonArray("chunks");
    assertTrue(chunks.size() < chunksV1, "fewer chunks after replacing with shorter text");
    for (int i = 0; i < chunks.size(); i++) {
      String t = chunks.getJsonObject(i).getString("text");
      assertFalse(t.contains("oldmule"), "old chunks are gone: " + t);
      assertTrue(t.contains("newmule"));
      assertEquals(chunks.size(), chunks.getJsonObject(i).getInteger("total"));
    }
    assertEquals(1, total("t-dedupe"));
  }

  @Test
  void deleteRemovesTheDocumentAndPublishesTheChange() {
    postJson("/api/documents", new JsonObject().put("id", "del-1").put("title", "To delete").put("namespace", "t-del")
        .put("text", longText("deleteme", 4)));
    assertEquals(1, total("t-del"));
    HttpResponse<Buffer> r = await(client.delete("/api/documents/del-1").send());
    assertEquals(200, r.statusCode());
    assertEquals(new JsonObject().put("deleted", true).put("id", "del-1"), r.bodyAsJsonObject());
    assertError(get("/api/documents/del-1"), 404, "unknown_document", "del-1");
    assertEquals(0, total("t-del"));
    assertError(await(client.delete("/api/documents/del-1").send()), 404, "unknown_document", "del-1");
    assertTrue(changes.contains(new JsonObject().put("namespace", "t-del").put("documentId", "del-1")
        .put("change", "delete")), changes.toString());
  }

  @Test
  void jsonlBodyAndDocumentsArrayWithPaging() {
    String jsonl = """
        {"id": "l-1", "title": "One", "text": "First line document.", "namespace": "t-jsonl"}
        {"title": "Two", "text": "Second line document.", "namespace": "t-jsonl", "metadata": {"risk": "high"}}

        {"id": "l-3", "title": "Three", "text": "<p>Third <b>html</b> document.</p>", "format": "html", "namespace": "t-jsonl"}
        """;
    HttpResponse<Buffer> r = await(client.post("/api/documents").putHeader("Content-Type", "application/x-ndjson")
        .sendBuffer(Buffer.buffer(jsonl)));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    assertEquals(3, r.bodyAsJsonObject().getInteger("created"));
    assertEquals("Third html document.", get("/api/documents/l-3").bodyAsJsonObject().getString("text"));
    String derived = DocumentRules.idFromTitle("t-jsonl", "Two");
    assertEquals("high", get("/api/documents/" + derived).bodyAsJsonObject().getJsonObject("metadata").getString("risk"));

    HttpResponse<Buffer> batch = postJson("/api/documents?namespace=t-jsonl", new JsonObject().put("documents",
        new JsonArray().add(new JsonObject().put("id", "l-4").put("title", "Four").put("text", "Fourth."))));
    assertEquals(201, batch.statusCode(), batch.bodyAsString());
    JsonObject page = get("/api/documents?namespace=t-jsonl&limit=2&offset=0").bodyAsJsonObject();
    assertEquals(4, page.getLong("total"));
    assertEquals(2, page.getJsonArray("documents").size());
    assertFalse(page.getJsonArray("documents").getJsonObject(0).containsKey("text"), "listings leave out the text");
    assertEquals(2, get("/api/documents?namespace=t-jsonl&limit=2&offset=2").bodyAsJsonObject()
        .getJsonArray("documents").size());
  }

  @Test
  void multipartUploadOfSeveralFiles() {
    MultipartForm form = MultipartForm.create()
        .attribute("namespace", "t-upload")
        .textFileUpload("file", "Takeover Policy.md", Buffer.buffer("""
            ---
            id: ato-policy
            title: Account takeover policy
            category: policy
            date: 2024-05-01
            ---
            # Account takeover

            Lock the account after **three** failed logins.
            """), "text/markdown")
        .textFileUpload("file", "notes.txt", Buffer.buffer("Plain notes about promotion abuse."), "text/plain")
        .textFileUpload("file", "page.html", Buffer.buffer("<html><head><title>Triangulation</title></head>"
            + "<body><nav>menu</nav><p>Goods bought with stolen cards.</p></body></html>"), "text/html")
        .textFileUpload("file", "batch.jsonl", Buffer.buffer("{\"id\":\"u-1\",\"title\":\"A\",\"text\":\"Alpha.\"}\n"
            + "{\"id\":\"u-2\",\"title\":\"B\",\"text\":\"Beta.\"}\n"), "application/x-ndjson");
    HttpResponse<Buffer> r = await(client.post("/api/documents").sendMultipartForm(form));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals(5, job.getInteger("created"), job.encode());
    assertEquals(5, total("t-upload"), job.encode());
    JsonObject ato = get("/api/documents/ato-policy").bodyAsJsonObject();
    assertEquals("Account takeover policy", ato.getString("title"));
    assertEquals("policy", ato.getJsonObject("metadata").getString("category"));
    assertEquals("2024-05-01", ato.getJsonObject("metadata").getString("date"));
    assertEquals("Account takeover.\n\nLock the account after three failed logins.", ato.getString("text"));
    JsonObject notes = get("/api/documents/t-upload:notes").bodyAsJsonObject();
    assertEquals("notes", notes.getString("title"), "title falls back to the file's base name");
    assertEquals("notes.txt", notes.getString("source"));
    JsonObject page = get("/api/documents/t-upload:page").bodyAsJsonObject();
    assertEquals("Triangulation", page.getString("title"));
    assertEquals("Goods bought with stolen cards.", page.getString("text"));
    assertEquals(200, get("/api/documents/u-2").statusCode());
  }

  @Test
  void failureWhileParsingNamesTheDocumentAndStoresNothing() {
    HttpResponse<Buffer> r = postJson("/api/documents", new JsonObject().put("id", "fm-only").put("format", "markdown")
        .put("namespace", "t-parse").put("text", "---\ntitle: Only front matter\n---\n"));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals("failed", job.getString("status"));
    JsonObject outcome = job.getJsonArray("documents").getJsonObject(0);
    assertEquals("failed", outcome.getString("outcome"));
    assertTrue(outcome.getString("error").contains("document 'fm-only'"), outcome.getString("error"));
    assertTrue(outcome.getString("error").contains("no text"), outcome.getString("error"));
    assertEquals(0, total("t-parse"));
  }

  @Test
  void everyBadRequestIsAJsonErrorAndStoresNothing() {
    int requestsBefore = embeddings.requestCount();
    String ns = "t-errors";
    JsonObject good = new JsonObject().put("title", "T").put("text", "Fine text.").put("namespace", ns);
    assertError(postJson("/api/documents", "{not json"), 400, "invalid_json", null);
    assertError(postJson("/api/documents", "[1,2]"), 400, "invalid_json", null);
    assertError(postJson("/api/documents", good.copy().put("text", (String) null)), 400, "missing_field", "'text'");
    assertError(postJson("/api/documents", good.copy().put("text", 42)), 400, "invalid_field", "'text'");
    assertError(postJson("/api/documents", good.copy().put("text", "   ")), 400, "empty_text", "'text'");
    assertError(postJson("/api/documents", good.copy().put("title", (String) null)), 400, "missing_field", "'title'");
    assertError(postJson("/api/documents", good.copy().put("title", List.of("x"))), 400, "invalid_field", "'title'");
    assertError(postJson("/api/documents", good.copy().put("namespace", "Not Valid")), 400, "invalid_namespace",
        "Not Valid");
    assertError(postJson("/api/documents?namespace=UPPER", good.copy().put("namespace", (String) null)), 400,
        "invalid_namespace", "UPPER");
    assertError(postJson("/api/documents", good.copy().put("id", "bad id/x")), 400, "invalid_id", "bad id/x");
    assertError(postJson("/api/documents", good.copy().put("format", "pdf")), 400, "invalid_field", "format");
    assertError(postJson("/api/documents", good.copy().put("metadata", new JsonObject().put("k",
        new JsonObject().put("a", 1)))), 400, "invalid_metadata", "'k'");
    assertError(postJson("/api/documents", good.copy().put("metadata", "x")), 400, "invalid_field", "metadata");
    assertError(postJson("/api/documents", new JsonObject().put("documents", new JsonArray())), 400, "empty_batch", null);
    assertError(postJson("/api/documents", new JsonObject().put("documents", new JsonArray().add(good)
        .add(good.copy().put("text", "")))), 400, "empty_text", "documents[1]");
    assertError(await(client.post("/api/documents").putHeader("Content-Type", "application/x-ndjson")
        .sendBuffer(Buffer.buffer("\n{\"title\": \"x\", \"text\": \n"))), 400, "invalid_jsonl", "body line 2");
    assertError(await(client.post("/api/documents").putHeader("Content-Type", "text/plain")
        .sendBuffer(Buffer.buffer("hello"))), 415, "unsupported_media_type", "text/plain");
    assertError(await(client.post("/api/documents").sendBuffer(Buffer.buffer("hello"))), 415,
        "unsupported_media_type", null);
    assertError(await(client.post("/api/documents").sendMultipartForm(MultipartForm.create()
        .attribute("namespace", ns)
        .binaryFileUpload("file", "scan.pdf", Buffer.buffer("%PDF-1.4"), "application/pdf"))), 415,
        "unsupported_media_type", "scan.pdf");
    assertError(await(client.post("/api/documents").sendMultipartForm(MultipartForm.create()
        .attribute("namespace", ns)
        .textFileUpload("file", "big.txt", Buffer.buffer("x ".repeat(1500)), "text/plain"))), 413,
        "payload_too_large", "big.txt");
    assertError(await(client.post("/api/documents").sendMultipartForm(MultipartForm.create()
        .attribute("namespace", ns).textFileUpload("file", "empty.md", Buffer.buffer("  \n"), "text/markdown"))),
        400, "empty_text", "empty.md");
    assertError(await(client.post("/api/documents").sendMultipartForm(MultipartForm.create()
        .attribute("namespace", ns).attribute("other", "x"))), 400, "no_files", null);
    assertError(postJson("/api/documents", good.copy().put("text", "word ".repeat(14_000))), 413,
        "payload_too_large", null);
    assertError(postJson("/api/documents?wait=maybe", good), 400, "invalid_parameter", "wait");
    assertError(get("/api/documents/no-such-doc"), 404, "unknown_document", "no-such-doc");
    assertError(await(client.delete("/api/documents/no-such-doc").send()), 404, "unknown_document", null);
    assertError(get("/api/documents?namespace=Bad!"), 400, "invalid_namespace", null);
    assertError(get("/api/documents?limit=0"), 400, "invalid_parameter", "limit");
    assertError(get("/api/ingest/jobs/no-such-job"), 404, "unknown_job", "no-such-job");
    assertError(get("/api/ingest/jobs/no-such-job/events"), 404, "unknown_job", "no-such-job");

    assertEquals(0, total(ns), "nothing of a bad request is stored");
    assertEquals(requestsBefore, embeddings.requestCount(), "nothing of a bad request is embedded");
  }
}
