package dev.argus.cluster;

import dev.argus.agent.SseClient;
import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.FakeHttpServer;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Argus nodes in two JVMs, clustered over Hazelcast on loopback, sharing one fresh PostgreSQL database; the LLM and
 * the embedding provider are fake HTTP servers in this JVM (the LLM slow, so runs are in flight when a node dies).
 * Shows: a request on either node is served; a document ingested on one node empties the other node's retrieval
 * cache; after {@code kill -9} of one node every run ends (completed, or failed with a reason) exactly once, the runs
 * of the dead node are taken over within the lease bound; SSE clients on the surviving node get the rest of the
 * events, and a client of the dead node reconnecting to the other with {@code Last-Event-ID} replays from there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class ClusterFailoverTest {

  static final long LEASE_MS = 4_000;
  static final long SCAN_MS = 1_000;
  static final int RUNS = 6;
  static final long LLM_DELAY_MS = 700;

  private Vertx vertx;
  private PgTestDatabase pg;
  private FakeOpenAiServer llm;
  private FakeEmbeddingServer embed;
  private NodeProcess a;
  private NodeProcess b;
  private WebClient web;

  @BeforeAll
  void startCluster() throws Exception {
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    pg = PgTestDatabase.create();
    llm = await(FakeOpenAiServer.start(vertx));
    llm.respondWith(slowPhases());
    embed = await(FakeEmbeddingServer.start(vertx));
    Path dir = TestApp.tempDataDir();
    String cluster = "argus-test-" + UUID.randomUUID().toString().substring(0, 8);
    int portA = NodeProcess.freePort();
    int portB = NodeProcess.freePort();
    JsonArray members = new JsonArray().add("127.0.0.1:" + portA).add("127.0.0.1:" + portB);
    a = NodeProcess.start("node-a", nodeConf(dir.resolve("a"), cluster, portA, members), dir);
    b = NodeProcess.start("node-b", nodeConf(dir.resolve("b"), cluster, portB, members), dir);
    a.awaitUp(vertx, 2, 180_000);
    b.awaitUp(vertx, 2, 180_000);
  }

  @AfterAll
  void stopCluster() throws Exception {
    for (NodeProcess n : new NodeProcess[]{a, b}) {
      if (n != null) {
        n.kill();
      }
    }
    if (web != null) {
      web.close();
    }
    await(vertx.close());
    if (pg != null) {
      pg.close();
    }
  }

  private JsonObject nodeConf(Path dataDir, String cluster, int clusterPort, JsonArray members) throws Exception {
    JsonObject raw = embed.configure(TestApp.config(dataDir)).raw().copy();
    raw.getJsonObject("http").put("port", NodeProcess.freePort());
    raw.getJsonObject("store").put("type", "postgres");
    raw.getJsonObject("pg").put("database", pg.conf().database());
    raw.getJsonObject("ingest").put("chunkTargetChars", 125).put("chunkMaxChars", 400).put("overlapSentences", 0);
    raw.getJsonObject("llm").mergeIn(llm.conf()).put("timeoutMs", 10_000).put("maxRetries", 0);
    raw.getJsonObject("agent").put("toolTimeoutMs", 3_000).put("cacheTtlMs", 0);
    raw.getJsonObject("eval").put("enabled", false);
    raw.put("cluster", new JsonObject().put("enabled", true).put("name", cluster).put("host", "127.0.0.1")
        .put("port", clusterPort).put("members", members).put("leaseMs", LEASE_MS).put("renewMs", 1_000)
        .put("takeoverScanMs", SCAN_MS));
    return raw;
  }

  /** The phases' LLM calls, each answered after {@link #LLM_DELAY_MS}: a run takes a few seconds. */
  private static Function<FakeHttpServer.Recorded, FakeReply> slowPhases() {
    return r -> {
      String system = r.body().getJsonArray("messages").getJsonObject(0).getString("content");
      FakeReply reply;
      if (system.startsWith("You analyse")) {
        reply = FakeReply.text(new JsonObject().put("intent", "question").put("needsRetrieval", true)
            .put("query", "refund processing time").put("entities", new JsonArray()).put("filters", new JsonObject())
            .encode());
      } else if (system.startsWith("You plan")) {
        reply = FakeReply.text(new JsonObject().put("rationale", "look up refund timing").put("calls", new JsonArray()
            .add(new JsonObject().put("tool", "knowledge_search").put("params", new JsonObject()
                .put("query", "refunds processed days").put("topK", 4)))).encode());
      } else if (system.startsWith("You answer")) {
        reply = FakeReply.text("Refunds are processed within 14 days after the returned item arrives at the "
            + "warehouse. [cite:refund-policy:1]");
      } else if (system.startsWith("You check")) {
        reply = FakeReply.text("{\"sentences\": [{\"index\": 0, \"supported\": true, \"reason\": \"stated\"}], "
            + "\"contradictions\": [], \"overconfident\": []}");
      } else {
        reply = FakeReply.error(400);
      }
      return reply.delay(LLM_DELAY_MS);
    };
  }

  @Test
  void anyNodeServesAndAKilledNodesRunsEndOnceWithStreamsReplayedOnTheOther() throws Exception {
    // ---- a request on either node is served; the retrieval caches stay coherent across nodes ----
    ingest(a, "refund-policy", "Refund policy", "Customers can request a refund within 30 days of delivery. "
        + "Refunds are processed within 14 days after the returned item arrives at the warehouse.");
    JsonObject onA = search(a, "refund processed days");
    JsonObject onB = search(b, "refund processed days");
    assertEquals("refund-policy", first(onA), onA.encode());
    assertEquals("refund-policy", first(onB), onB.encode());
    String rare = "quokka quarantine protocol";
    assertFalse(ids(search(b, rare)).contains("quokka-doc"), "not ingested yet");
    ingest(a, "quokka-doc", "Quokka quarantine protocol", "The quokka quarantine protocol lasts nine days. "
        + "Each quokka is checked daily by the keeper.");
    // same query on B well within its cache TTL (30 s): the knowledge-change event from A empties B's cache; the
    // event crosses the bus on its own, so B is given up to 5 s (a stale cache would answer for 30)
    long until = System.currentTimeMillis() + 5_000;
    boolean fresh = ids(search(b, rare)).contains("quokka-doc");
    while (!fresh && System.currentTimeMillis() < until) {
      Thread.sleep(200);
      fresh = ids(search(b, rare)).contains("quokka-doc");
    }
    assertTrue(fresh, "node B served a stale cached result");

    // ---- runs on both nodes, clients on both nodes ----
    List<String> runIds = new ArrayList<>();
    Map<String, Long> lastSeen = new HashMap<>();
    for (int i = 0; i < RUNS; i++) {
      NodeProcess entry = i % 2 == 0 ? a : b;
      SseClient.Result head = await(new SseClient(vertx, entry.httpPort).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed? (client " + i + ")"),
          e -> "phase".equals(e.type())), 60);
      assertEquals(200, head.status(), head.body());
      String runId = head.events().get(0).data().getString("runId");
      runIds.add(runId);
      lastSeen.put(runId, head.events().get(head.events().size() - 1).id());
    }
    Map<String, String> owners = leaseOwners(runIds);
    List<String> onDeadNode = runIds.stream().filter(id -> b.nodeId().equals(owners.get(id))).toList();
    assertFalse(onDeadNode.isEmpty(), "no run in flight on node B when it is killed: " + owners);
    // streams on the surviving node A follow every run; streams on B follow B's runs until B dies
    Map<String, Future<SseClient.Result>> followOnA = new HashMap<>();
    for (String id : runIds) {
      followOnA.put(id, new SseClient(vertx, a.httpPort).get("/api/runs/" + id + "/events",
          String.valueOf(lastSeen.get(id)), null));
    }
    Map<String, Future<SseClient.Result>> followOnB = new HashMap<>();
    for (String id : onDeadNode) {
      followOnB.put(id, new SseClient(vertx, b.httpPort).get("/api/runs/" + id + "/events",
          String.valueOf(lastSeen.get(id)), null));
    }
    Thread.sleep(300);

    long killedAt = System.currentTimeMillis();
    b.kill();

    // ---- every stream on A ends with exactly one terminal event, ids in order after the client's last ----
    for (String id : runIds) {
      SseClient.Result rest = await(followOnA.get(id), 120);
      assertContiguousToTheEnd(id, lastSeen.get(id), rest.events());
    }
    // ---- a client of the dead node reconnects to A with Last-Event-ID and replays from there ----
    for (String id : onDeadNode) {
      SseClient.Result cut = await(followOnB.get(id), 60);
      long last = cut.events().isEmpty() ? lastSeen.get(id) : cut.events().get(cut.events().size() - 1).id();
      if (!cut.events().isEmpty()) {
        assertContiguous(id, lastSeen.get(id), cut.events());
      }
      SseClient.Result replay = await(new SseClient(vertx, a.httpPort).get("/api/runs/" + id + "/events",
          String.valueOf(last), null), 60);
      assertContiguousToTheEnd(id, last, replay.events());
    }

    // ---- in the store: each run ended once; B's runs were taken over within the bound or failed with a reason ----
    for (String id : runIds) {
      JsonObject run = getJson(a, "/api/runs/" + id);
      String status = run.getString("status");
      assertTrue("completed".equals(status) || ("failed".equals(status) && notBlank(run.getString("error"))),
          id + ": " + run.encode());
      assertEquals(1, countEvents(id, "'final', 'error'"), id + " ended more than once or never");
    }
    for (String id : onDeadNode) {
      Long resumedAt = firstEventAt(id, "agent_log", "resumed after the loss of its node");
      JsonObject run = getJson(a, "/api/runs/" + id);
      System.out.println("cluster test: run " + id + " of the killed node: " + run.getString("status")
          + (resumedAt == null ? ", not resumed" : ", resumed on the survivor " + (resumedAt - killedAt)
          + " ms after the kill") + (run.getString("error") == null ? "" : ", error: " + run.getString("error")));
      if (resumedAt == null) {
        assertTrue("failed".equals(run.getString("status")) || lastSeenFinishedBeforeKill(id, killedAt),
            id + " was neither resumed nor failed with a reason: " + run.encode());
      } else {
        long after = resumedAt - killedAt;
        // the bound is lease + scan; the slack covers reading the run's log on a busy machine (full suite)
        assertTrue(after <= LEASE_MS + SCAN_MS + 10_000, id + " was taken over " + after + " ms after the kill");
      }
    }
    assertTrue(leaseOwners(runIds).isEmpty(), "ended runs keep no lease: " + leaseOwners(runIds));
    // the survivor still serves
    assertEquals("refund-policy", first(search(a, "refund processed days")));
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  /** Whether the run had already ended on B before the kill (then nothing was left to take over). */
  private boolean lastSeenFinishedBeforeKill(String runId, long killedAt) throws Exception {
    Long end = firstEventAt(runId, "final", null);
    return end != null && end < killedAt;
  }

  private static void assertContiguous(String runId, long after, List<SseClient.Event> events) {
    for (int i = 0; i < events.size(); i++) {
      assertEquals(after + 1 + i, events.get(i).id(), runId + ": " + events.stream().map(e -> e.id() + ":" + e.type())
          .toList());
    }
  }

  private static void assertContiguousToTheEnd(String runId, long after, List<SseClient.Event> events) {
    assertFalse(events.isEmpty(), runId + ": no events after " + after);
    assertContiguous(runId, after, events);
    String lastType = events.get(events.size() - 1).type();
    assertTrue("final".equals(lastType) || "error".equals(lastType), runId + " ended with " + lastType);
    assertEquals(1, events.stream().filter(e -> "final".equals(e.type()) || "error".equals(e.type())).count());
  }

  // ---- HTTP and SQL helpers ----

  private void ingest(NodeProcess node, String id, String title, String text) {
    JsonObject body = new JsonObject().put("documents", new JsonArray().add(new JsonObject().put("id", id)
        .put("title", title).put("text", text).put("format", "text")));
    HttpResponse<Buffer> resp = await(web.post(node.httpPort, "127.0.0.1", "/api/documents")
        .addQueryParam("wait", "true").sendJsonObject(body), 60);
    assertEquals(201, resp.statusCode(), resp.bodyAsString());
  }

  private JsonObject search(NodeProcess node, String query) {
    HttpResponse<Buffer> resp = await(web.post(node.httpPort, "127.0.0.1", "/api/search")
        .sendJsonObject(new JsonObject().put("query", query).put("topK", 5)), 60);
    assertEquals(200, resp.statusCode(), node.name + ": " + resp.bodyAsString());
    return resp.bodyAsJsonObject();
  }

  private JsonObject getJson(NodeProcess node, String path) {
    HttpResponse<Buffer> resp = await(web.get(node.httpPort, "127.0.0.1", path).send(), 60);
    assertEquals(200, resp.statusCode(), resp.bodyAsString());
    return resp.bodyAsJsonObject();
  }

  private static String first(JsonObject search) {
    JsonArray results = search.getJsonArray("results");
    assertNotNull(results);
    return results.isEmpty() ? null : results.getJsonObject(0).getString("documentId");
  }

  private static List<String> ids(JsonObject search) {
    return search.getJsonArray("results").stream().map(o -> ((JsonObject) o).getString("documentId")).toList();
  }

  private Map<String, String> leaseOwners(List<String> runIds) throws Exception {
    Map<String, String> owners = new HashMap<>();
    try (Connection c = PgTestDatabase.connect(pg.conf());
         PreparedStatement st = c.prepareStatement("SELECT run_id, node_id FROM run_leases")) {
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          if (runIds.contains(rs.getString(1))) {
            owners.put(rs.getString(1), rs.getString(2));
          }
        }
      }
    }
    return owners;
  }

  private int countEvents(String runId, String types) throws Exception {
    try (Connection c = PgTestDatabase.connect(pg.conf());
         PreparedStatement st = c.prepareStatement("SELECT count(*) FROM run_events WHERE run_id = ? AND type IN ("
             + types + ")")) {
      st.setString(1, runId);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  /** When the run's first event of {@code type} (whose data contains {@code text}, if given) was stored. */
  private Long firstEventAt(String runId, String type, String text) throws Exception {
    try (Connection c = PgTestDatabase.connect(pg.conf());
         PreparedStatement st = c.prepareStatement("SELECT created_at FROM run_events WHERE run_id = ? AND type = ? "
             + "AND (?::text IS NULL OR data::text LIKE '%' || ? || '%') ORDER BY event_id LIMIT 1")) {
      st.setString(1, runId);
      st.setString(2, type);
      st.setString(3, text);
      st.setString(4, text);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    }
  }
}
