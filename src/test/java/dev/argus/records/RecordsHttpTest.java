package dev.argus.records;

import dev.argus.agent.SseClient;
import dev.argus.app.Services;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.graph.GraphStores;
import dev.argus.graph.GraphVerticle;
import dev.argus.testing.TestApp;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryContext;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Record loading and reading over real HTTP against the whole service (real SQLite file, real SSE client). */
class RecordsHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  private static final List<JsonObject> changes = new CopyOnWriteArrayList<>();
  private static ArgusConfig conf;
  /** A graph verticle this test deployed itself after undeploying the app's (see {@link #noGraphDeployedTheBatchSkipsIt}). */
  private static String redeployedGraph;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    redeployedGraph = null; // a rerun of the class in the same JVM starts from a fresh app
    conf = TestApp.config(TestApp.tempDataDir())
        .with("http", "maxBodyBytes", 65_536)
        .with("records", "batchSize", 5)
        .with("records", "asyncThresholdBytes", 4096);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    vertx.eventBus().<JsonObject>consumer(Addresses.RECORDS_CHANGED, msg -> changes.add(msg.body()));
  }

  @AfterAll
  static void stop() {
    if (redeployedGraph != null) {
      await(vertx.undeploy(redeployedGraph));
      redeployedGraph = null;
    }
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> post(String body, String type) {
    return await(client.post("/api/records").putHeader("Content-Type", type).sendBuffer(Buffer.buffer(body)));
  }

  static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  static String seller(String id, String extra) {
    return "{\"kind\":\"seller\",\"id\":\"" + id + "\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"legalName\":\"Ava Adler\","
        + "\"country\":\"DE\",\"taxId\":\"TAX-" + id + "-777\"" + extra + "}";
  }

  static String tx(String id, String seller, String at, String amount) {
    return "{\"kind\":\"transaction\",\"id\":\"" + id + "\",\"at\":\"" + at + "\",\"sellerId\":\"" + seller
        + "\",\"amount\":" + amount + ",\"currency\":\"EUR\"}";
  }

  @Test
  void badLinesAreReportedAndTheRestIsStored() {
    String body = String.join("\n", seller("S-H1", ",\"label\":{\"fraud\":false}"), "{\"kind\":\"seller\",", "",
        tx("T-H1", "S-H1", "2025-03-01T00:00:00Z", "-3"), tx("T-H2", "S-H1", "2025-03-02T00:00:00Z", "12.5"));
    HttpResponse<Buffer> r = post(body, "application/jsonl");
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals("completed", job.getString("status"));
    assertEquals(5, job.getLong("lines"));
    assertEquals(2, job.getLong("created"));
    assertEquals(2, job.getLong("failed"));
    JsonArray errors = job.getJsonArray("errors");
    assertEquals(2, errors.getJsonObject(0).getLong("line"));
    assertNull(errors.getJsonObject(0).getString("field"));
    assertEquals(4, errors.getJsonObject(1).getLong("line"));
    assertEquals("amount", errors.getJsonObject(1).getString("field"));
    assertEquals("T-H1", errors.getJsonObject(1).getString("id"));
    assertEquals(1, job.getJsonObject("graph").getLong("applied"), "the real graph is told of the batch");
    assertEquals(0, job.getJsonObject("graph").getLong("failed"));
    HttpResponse<Buffer> entity = get("/api/entities/S-H1");
    assertEquals(200, entity.statusCode(), "the stored seller is in the graph: " + entity.bodyAsString());
    assertEquals("S-H1", entity.bodyAsJsonObject().getString("id"));

    JsonObject stored = get("/api/records/S-H1").bodyAsJsonObject();
    assertFalse(stored.containsKey("taxId"));
    assertFalse(stored.containsKey("label"));
    assertTrue(stored.getString("taxIdFp").startsWith("fp_"));
    assertEquals(404, get("/api/records/T-H1").statusCode(), "nothing of a bad line is stored");
    assertEquals("unknown_record", get("/api/records/T-H1").bodyAsJsonObject().getString("code"));

    JsonObject again = post(body, "application/x-ndjson").bodyAsJsonObject();
    assertEquals(0, again.getLong("created"));
    assertEquals(2, again.getLong("unchanged"), "loading twice changes nothing");
    JsonObject changed = post(tx("T-H2", "S-H1", "2025-03-02T00:00:00Z", "13"), "application/jsonl").bodyAsJsonObject();
    assertEquals(1, changed.getLong("updated"));
    assertEquals(13.0, get("/api/records/T-H2").bodyAsJsonObject().getDouble("amount"));
    assertTrue(changes.stream().anyMatch(c -> c.getJsonArray("ids").contains("T-H2")
        && c.getString("change").equals("upsert")));
  }

  @Test
  void badRequests() {
    assertEquals(415, post(seller("S-X", ""), "application/json").statusCode());
    assertEquals("unsupported_media_type", post(seller("S-X", ""), "text/plain").bodyAsJsonObject().getString("code"));
    assertEquals("empty_batch", post("", "application/jsonl").bodyAsJsonObject().getString("code"));
    HttpResponse<Buffer> big = post(seller("S-X", ",\"note\":\"" + "x".repeat(70_000) + "\""), "application/jsonl");
    assertEquals(413, big.statusCode());
    assertEquals(400, await(client.post("/api/records?wait=maybe").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(seller("S-X", "")))).statusCode());
    assertEquals(404, get("/api/records/S-X").statusCode(), "nothing of a refused request is stored");
    assertEquals(400, get("/api/records?kind=merchant").statusCode());
    assertEquals(400, get("/api/records?limit=0").statusCode());
    assertEquals(400, get("/api/records?asOf=yesterday").statusCode());
    assertEquals(400, get("/api/records/S-1?asOf=2025").statusCode());
    assertEquals(404, get("/api/records/jobs/nope").statusCode());
  }

  @Test
  void listingWithFiltersAsOfAndDelete() {
    post(String.join("\n", seller("S-L1", ""), tx("T-L1", "S-L1", "2025-03-01T00:00:00Z", "10"),
        tx("T-L2", "S-L1", "2025-03-05T00:00:00Z", "20"), tx("T-L3", "S-L1", "2025-03-09T00:00:00Z", "30"),
        "{\"kind\":\"case\",\"id\":\"C-L1\",\"subjectIds\":[\"S-L1\"],\"outcome\":\"fraud\",\"summary\":\"Closed.\","
            + "\"openedAt\":\"2025-03-02T00:00:00Z\",\"closedAt\":\"2025-03-06T00:00:00Z\"}"), "application/jsonl");
    JsonObject page = get("/api/records?kind=transaction&sellerId=S-L1&limit=2").bodyAsJsonObject();
    assertEquals(List.of("T-L1", "T-L2"), ids(page));
    assertTrue(page.getBoolean("hasMore"));
    assertEquals(List.of("T-L3"), ids(get("/api/records?kind=transaction&sellerId=S-L1&limit=2&offset=2")
        .bodyAsJsonObject()));
    assertEquals(List.of("T-L2"), ids(get("/api/records?kind=transaction&sellerId=S-L1&from=2025-03-02T00:00:00Z"
        + "&asOf=2025-03-06T00:00:00Z").bodyAsJsonObject()));
    JsonObject kase = get("/api/records/C-L1?asOf=2025-03-04T00:00:00Z").bodyAsJsonObject();
    assertEquals("pending", kase.getString("outcome"), "closed on 6 March");
    assertFalse(kase.containsKey("summary"));
    assertEquals("fraud", get("/api/records/C-L1").bodyAsJsonObject().getString("outcome"));
    assertEquals(404, get("/api/records/C-L1?asOf=2025-03-01T00:00:00Z").statusCode(), "opened on 2 March");
    assertEquals(List.of("C-L1"), ids(get("/api/records?subjectId=S-L1&kind=case").bodyAsJsonObject()));

    assertEquals(200, await(client.delete("/api/records/T-L3").send()).statusCode());
    assertEquals(404, await(client.delete("/api/records/T-L3").send()).statusCode());
    assertEquals(404, get("/api/records/T-L3").statusCode());
    assertTrue(changes.stream().anyMatch(c -> c.getString("change").equals("delete")
        && c.getJsonArray("ids").contains("T-L3")));
  }

  private static List<String> ids(JsonObject page) {
    return page.getJsonArray("records").stream().map(o -> ((JsonObject) o).getString("id")).toList();
  }

  /** The graph's inbound requests, seen on their way out of the records loader (the real graph still answers them). */
  private static Handler<DeliveryContext<Object>> graphApplyTap(Handler<DeliveryContext<Object>> onApply) {
    return ctx -> {
      if (Addresses.GRAPH_RECORDS_APPLY.equals(ctx.message().address())) {
        onApply.handle(ctx);
      } else {
        ctx.next();
      }
    };
  }

  @Test
  void largeLoadIsAJobWithSseProgressAndTheGraphIsToldPerBatch() {
    List<JsonObject> applied = new CopyOnWriteArrayList<>();
    // counts what the loader sends to the real graph, and holds each message a little before delivering it so the
    // job lasts long enough to watch its progress
    Handler<DeliveryContext<Object>> tap = graphApplyTap(ctx -> {
      applied.add((JsonObject) ctx.body());
      vertx.setTimer(150, t -> ctx.next());
    });
    vertx.eventBus().addOutboundInterceptor(tap);
    try {
      StringBuilder body = new StringBuilder(seller("S-J1", "")).append('\n');
      for (int i = 1; i <= 40; i++) {
        // each transaction has its own buyer, so every batch gives the graph something of its own to hold
        String t = tx("T-J" + i, "S-J1", "2025-03-01T00:00:" + String.format("%02d", i % 60) + "Z", "1" + i);
        body.append(i == 17 ? "{\"kind\":\"transaction\",\"id\":\"T-J17\"}"
            : t.substring(0, t.length() - 1) + ",\"buyerId\":\"B-J" + i + "\"}").append('\n');
      }
      HttpResponse<Buffer> r = post(body.toString(), "application/jsonl");
      assertEquals(202, r.statusCode(), r.bodyAsString());
      String jobId = r.bodyAsJsonObject().getString("jobId");
      assertEquals("/api/records/jobs/" + jobId, r.getHeader("Location"));
      SseClient sse = new SseClient(vertx, app.port());
      SseClient.Result events = await(sse.get("/api/records/jobs/" + jobId + "/events", null,
          e -> e.type().equals("done")));
      await(sse.close());
      assertEquals("done", events.events().get(events.events().size() - 1).type());
      assertTrue(events.types().contains("progress"));
      JsonObject done = events.last("done").data();
      assertEquals("completed", done.getString("status"));
      assertEquals(41, done.getLong("lines"));
      assertEquals(40, done.getLong("created"));
      assertEquals(1, done.getLong("failed"));
      // 41 lines in batches of 5 = 9 batches, each applied to the real graph
      JsonObject graph = done.getJsonObject("graph");
      assertEquals(9, graph.getLong("applied"), graph.encode());
      assertEquals(0, graph.getLong("failed"), graph.encode());
      assertEquals(0, graph.getLong("skipped"), graph.encode());
      // the graph's own counts (distinct nodes and edges each apply wrote), summed over the batches: the seller and
      // its tax id (linked), 39 buyers each buying from the seller (the bad line's buyer B-J17 never comes), and the
      // seller written again by each of the 8 later batches: 2 + 39 + 8 nodes, 1 + 39 edges
      assertEquals(49, graph.getLong("nodes"), graph.encode());
      assertEquals(40, graph.getLong("edges"), graph.encode());
      assertEquals(9, applied.size(), "one graph message per batch");
      JsonObject first = applied.get(0);
      assertEquals("upsert", first.getString("change"));
      JsonObject s = first.getJsonArray("records").getJsonObject(0);
      assertEquals("S-J1", s.getString("id"));
      assertFalse(s.containsKey("taxId"), "the graph gets the stored form");
      assertEquals(40, applied.stream().mapToInt(a -> a.getJsonArray("records").size()).sum(),
          "every stored record, and only those, reaches the graph");
      // the real graph now holds what was loaded, first batch to last, and nothing of the bad line
      for (String id : List.of("S-J1", "B-J1", "B-J40")) {
        HttpResponse<Buffer> entity = get("/api/entities/" + id);
        assertEquals(200, entity.statusCode(), id + ": " + entity.bodyAsString());
        assertEquals(id, entity.bodyAsJsonObject().getString("id"));
      }
      assertEquals(404, get("/api/entities/B-J17").statusCode(), "a refused line never reaches the graph");
      long previous = -1;
      for (SseClient.Event e : events.events()) {
        assertTrue(e.id() > previous, "event ids grow");
        previous = e.id();
      }
      // T-J17 is on line 18 (the seller is line 1)
      assertEquals(18, done.getJsonArray("errors").getJsonObject(0).getLong("line"));
      assertEquals("at", done.getJsonArray("errors").getJsonObject(0).getString("field"), "the first missing field");
      if (events.types().contains("errors")) {
        assertEquals(18, events.last("errors").data().getJsonArray("errors").getJsonObject(0).getLong("line"));
      }
      SseClient late = new SseClient(vertx, app.port());
      SseClient.Result after = await(late.get("/api/records/jobs/" + jobId + "/events", null, null));
      await(late.close());
      assertEquals(List.of("done"), after.types(), "a client connecting after the end gets done at once");
      assertEquals("completed", get("/api/records/jobs/" + jobId).bodyAsJsonObject().getString("status"));
    } finally {
      vertx.eventBus().removeOutboundInterceptor(tap);
    }
  }

  @Test
  void aFailingGraphFailsTheBatchesButKeepsTheRecords() {
    // the graph's store cannot be broken from here: the request to the real graph is failed on its way instead, as
    // the graph verticle would fail it (a recipient failure with the graph's error body)
    AtomicInteger told = new AtomicInteger();
    Handler<DeliveryContext<Object>> failing = graphApplyTap(ctx -> {
      told.incrementAndGet();
      ctx.message().fail(500, "{\"error\":\"graph store down\",\"code\":\"internal_error\"}");
    });
    vertx.eventBus().addOutboundInterceptor(failing);
    try {
      JsonObject job = post(seller("S-G1", "") + "\n" + tx("T-G1", "S-G1", "2025-03-01T00:00:00Z", "5"),
          "application/jsonl").bodyAsJsonObject();
      assertEquals("completed", job.getString("status"));
      assertEquals(1, told.get(), "the graph was asked once");
      assertEquals(1, job.getJsonObject("graph").getLong("failed"), job.encode());
      assertEquals(0, job.getJsonObject("graph").getLong("applied"), job.encode());
      assertTrue(job.getJsonObject("graph").getJsonArray("errors").getString(0).contains("graph store down"));
      assertEquals(200, get("/api/records/T-G1").statusCode(), "the records are stored all the same");
      assertEquals(200, get("/api/records/S-G1").statusCode(), "the records are stored all the same");
    } finally {
      vertx.eventBus().removeOutboundInterceptor(failing);
    }
    assertEquals(404, get("/api/entities/S-G1").statusCode(), "the failed batch never reached the graph");
  }

  @Test
  void noGraphDeployedTheBatchSkipsIt() {
    // the app does not hand out the graph verticle's deployment id: it is found among the app's deployments
    VertxInternal internal = (VertxInternal) vertx;
    String graphId = internal.deploymentManager().deployments().stream()
        .filter(d -> d.deployment().instances().stream().anyMatch(GraphVerticle.class::isInstance))
        .map(d -> d.id()).findFirst().orElseThrow(() -> new AssertionError("the app deploys a graph verticle"));
    await(vertx.undeploy(graphId));
    try {
      JsonObject job = post(seller("S-N1", "") + "\n" + tx("T-N1", "S-N1", "2025-03-01T00:00:00Z", "5"),
          "application/jsonl").bodyAsJsonObject();
      assertEquals("completed", job.getString("status"));
      assertEquals(2, job.getLong("created"));
      assertEquals(1, job.getJsonObject("graph").getLong("skipped"), "no graph deployed: the batch skips it");
      assertEquals(0, job.getJsonObject("graph").getLong("failed"), job.encode());
      assertEquals(200, get("/api/records/T-N1").statusCode(), "the records are stored without a graph");
    } finally {
      // the other tests need a graph again: one like the app's, over the same database
      Services s = app.main().services();
      redeployedGraph = await(vertx.deployVerticle(new GraphVerticle(conf.graph(), GraphStores.create(s.database()),
          s.fingerprinter()), GraphVerticle.deploymentOptions()));
    }
    assertEquals(404, get("/api/entities/S-N1").statusCode(), "the graph was not told");
  }

  @Test
  void casesBecomeKnowledgeDocuments() throws Exception {
    post("{\"kind\":\"case\",\"id\":\"C-D1\",\"subjectIds\":[\"S-D1\",\"S-D2\"],\"outcome\":\"fraud\",\"summary\":"
        + "\"Sellers S-D1 and S-D2 paid out to one account ending 4821 from IP 203.0.113.7.\",\"openedAt\":"
        + "\"2025-03-02T00:00:00Z\",\"closedAt\":\"2025-03-06T00:00:00Z\"}", "application/jsonl");
    HttpResponse<Buffer> doc = null;
    for (int i = 0; i < 120 && (doc == null || doc.statusCode() != 200); i++) {
      Thread.sleep(500);
      doc = get("/api/documents/case-C-D1");
    }
    assertNotNull(doc);
    assertEquals(200, doc.statusCode(), doc.bodyAsString());
    JsonObject d = doc.bodyAsJsonObject();
    assertTrue(d.getString("text").contains("IP 203.0.113.7"));
    assertEquals("case", d.getJsonObject("metadata").getString("category"));
    assertEquals("fraud", d.getJsonObject("metadata").getString("outcome"));
  }
}
