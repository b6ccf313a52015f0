package dev.argus.adversarial;

import dev.argus.agent.SseClient;
import dev.argus.cli.Main;
import dev.argus.config.ArgusConfig;
import dev.argus.records.world.WorldGenerator;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Adversarial runs against the whole service (real SQLite file, real HTTP, the real decision engine, graph, ingestion,
 * agent and citation validation; the model of the fabricated citations is a real HTTP server on loopback). The
 * planted counts are computed here from the world generator's own labels and the documented per-technique rule;
 * every type's report must add up.
 */
class AdversarialHttpTest {

  static final int SIZE = 60;
  static final long SEED = 1337;

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  private static JsonObject allRun;

  @BeforeAll
  static void start() {
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release();
    // a blocked event loop is reported with its stack (the default waits 5 s for one)
    vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setWarningExceptionTime(1500)
        .setWarningExceptionTimeUnit(java.util.concurrent.TimeUnit.MILLISECONDS));
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("adversarial", "seed", SEED);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    HttpResponse<Buffer> r = post(new JsonObject().put("suite", "all").put("size", SIZE));
    assertEquals(202, r.statusCode(), r.bodyAsString());
    JsonObject started = r.bodyAsJsonObject();
    assertEquals("running", started.getString("status"));
    String id = started.getString("executionId");
    assertEquals("/api/adversarial/runs/" + id, r.getHeader("Location"));
    // progress over SSE, read by a real client until the last event
    SseClient.Result sse = await(new SseClient(vertx, app.port()).get("/api/adversarial/runs/" + id + "/events", null,
        e -> "done".equals(e.type())), 900);
    assertEquals(200, sse.status());
    assertTrue(sse.types().contains("progress"), sse.types().toString());
    assertEquals("done", sse.types().get(sse.types().size() - 1));
    // the persisted run (no longer live: read from the store)
    allRun = get("/api/adversarial/runs/" + id, 200);
    assertEquals("completed", allRun.getString("status"), allRun.encodePrettily());
    assertEquals(allRun.getJsonObject("report"), sse.last("done").data().getJsonObject("report"));
    System.out.print("adversarial suite all, size " + SIZE + ", seed " + SEED + ", "
        + allRun.getJsonObject("report").getLong("elapsedMs") + " ms:\n"
        + dev.argus.cli.AdversarialCommand.table(allRun.getJsonObject("report"))
        + "world load: " + allRun.getJsonObject("report").getJsonObject("world").getJsonObject("load")
            .getJsonObject("graph") + "\n");
    assertEquals(WorldScenarios.generate(SIZE, SEED, List.of()).lines(),
        allRun.getJsonObject("report").getJsonObject("world").getInteger("records"));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> post(JsonObject body) {
    return await(client.post("/api/adversarial/runs").sendJsonObject(body));
  }

  static JsonObject get(String path, int status) {
    HttpResponse<Buffer> r = await(client.get(path).send());
    assertEquals(status, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  /** Planted sellers per pattern, from the generator's labels (the ground truth the scenarios must follow). */
  static Map<String, Integer> plantedSellers() {
    StringWriter out = new StringWriter();
    WorldGenerator.generate(SIZE, SEED, out);
    Map<String, Integer> n = new HashMap<>();
    for (String line : out.toString().split("\n")) {
      JsonObject r = new JsonObject(line);
      JsonObject label = r.getJsonObject("label");
      if ("seller".equals(r.getString("kind")) && label != null && label.getBoolean("fraud")) {
        n.merge(label.getString("pattern"), 1, Integer::sum);
      }
    }
    return n;
  }

  @Test
  void everyTypeIsPlantedAsSpecifiedAndItsCountsAddUp() {
    JsonObject report = allRun.getJsonObject("report");
    JsonObject types = report.getJsonObject("types");
    Map<String, Integer> sellers = plantedSellers();
    Map<String, Integer> expected = new HashMap<>();
    for (ScenarioType t : ScenarioType.values()) {
      if (t.worldPattern() != null) {
        expected.put(t.wire(), sellers.getOrDefault(t.worldPattern(), 0));
      }
    }
    expected.put("obfuscated_identifiers", 5);   // 5 techniques x (60 / 60) twins
    expected.put("hidden_instructions", 4);      // 4 techniques x 1
    expected.put("fabricated_citations", 3);     // 3 techniques x 1
    int fraudSellers = 0;
    for (ScenarioType t : ScenarioType.values()) {
      fraudSellers += t.worldPattern() == null ? 0 : sellers.getOrDefault(t.worldPattern(), 0);
    }
    // the notices name up to 3 x (60 / 60) planted fraudsters the engine does not approve now
    JsonObject world = report.getJsonObject("world");
    assertEquals(fraudSellers, world.getInteger("poisonScreened"), "every planted fraudster is a candidate");
    int targets = world.getInteger("poisonTargets");
    assertTrue(targets <= 3, world.encode());
    expected.put("poisoned_documents", targets);
    int missed = 0;
    Map<String, Integer> bySeverity = new HashMap<>();
    int planted = 0;
    for (ScenarioType t : ScenarioType.values()) {
      JsonObject c = types.getJsonObject(t.wire());
      assertNotNull(c, t.wire());
      assertEquals(expected.get(t.wire()), c.getInteger("planted"), t.wire());
      assertTrue(c.getInteger("planted") > 0 || t == ScenarioType.POISONED_DOCUMENTS, t.wire() + " planted nothing");
      assertEquals(c.getInteger("planted"), c.getInteger("detected") + c.getInteger("missed") + c.getInteger("errors"),
          t.wire());
      int judged = c.getInteger("detected") + c.getInteger("missed");
      if (judged == 0) {
        assertNull(c.getDouble("detectionRate"));
      } else {
        assertEquals((double) c.getInteger("detected") / judged, c.getDouble("detectionRate"), 1e-12, t.wire());
      }
      missed += c.getInteger("missed");
      planted += c.getInteger("planted");
      bySeverity.merge(t.missSeverity().wire(), c.getInteger("missed"), Integer::sum);
    }
    assertEquals(planted, report.getJsonArray("findings").size());
    assertEquals(missed, report.getJsonArray("vulnerabilities").size());
    for (ScenarioType.Severity s : ScenarioType.Severity.values()) {
      assertEquals(bySeverity.getOrDefault(s.wire(), 0), report.getJsonObject("vulnerabilitiesBySeverity")
          .getInteger(s.wire()), s.wire());
    }
    assertNull(report.getString("baselineExecutionId"), "the first run of its suite has no baseline");
    assertEquals(new JsonArray(), report.getJsonArray("regressions"));
  }

  @Test
  void disguisedIdentifiersResolveToTheOriginalsEntity() {
    JsonObject ob = allRun.getJsonObject("report").getJsonObject("types").getJsonObject("obfuscated_identifiers");
    JsonObject techniques = ob.getJsonObject("techniques");
    for (String t : Obfuscations.TECHNIQUES) {
      assertEquals(1, techniques.getJsonObject(t).getInteger("detected"), t + ": " + findings("obfuscated_identifiers"));
    }
    assertEquals(1.0, ob.getDouble("detectionRate"));
  }

  @Test
  void fabricatedEntitiesAndRelationsAreNotAccepted() {
    JsonObject techniques = allRun.getJsonObject("report").getJsonObject("types").getJsonObject("fabricated_citations")
        .getJsonObject("techniques");
    assertEquals(1, techniques.getJsonObject("fabricated_entity").getInteger("detected"), findings("fabricated_citations"));
    assertEquals(1, techniques.getJsonObject("fabricated_relation").getInteger("detected"), findings("fabricated_citations"));
  }

  @Test
  void theDocumentsARunIngestedAreGoneAfterIt() {
    JsonObject docs = get("/api/documents?namespace=" + LanguageScenarios.NAMESPACE, 200);
    assertEquals(0, docs.getJsonArray("documents").size(), docs.encode());
  }

  private static String findings(String type) {
    JsonArray out = new JsonArray();
    allRun.getJsonObject("report").getJsonArray("findings").forEach(f -> {
      if (type.equals(((JsonObject) f).getString("type"))) {
        out.add(f);
      }
    });
    return out.encodePrettily();
  }

  @Test
  void badRequestsAreRefusedWithReasons() {
    assertBad(new JsonObject().put("suite", new JsonArray().add("teleportation")), 400, "invalid_field");
    assertBad(new JsonObject().put("suite", "all").put("size", 10), 400, "invalid_field");
    assertBad(new JsonObject().put("suite", "all").put("size", 100_000_000), 400, "invalid_field");
    assertBad(new JsonObject().put("suite", new JsonArray()), 400, "invalid_field");
    assertBad(new JsonObject().put("size", 60), 400, "missing_field");
    assertBad(new JsonObject().put("suite", "all").put("seed", 1), 400, "unknown_field");
    HttpResponse<Buffer> notJson = await(client.post("/api/adversarial/runs").putHeader("Content-Type",
        "application/json").sendBuffer(Buffer.buffer("{suite")));
    assertEquals(400, notJson.statusCode(), notJson.bodyAsString());
    JsonObject unknown = get("/api/adversarial/runs/adv-nope", 404);
    assertEquals("unknown_run", unknown.getString("code"));
  }

  private static void assertBad(JsonObject body, int status, String code) {
    HttpResponse<Buffer> r = post(body);
    assertEquals(status, r.statusCode(), body.encode() + " -> " + r.bodyAsString());
    assertEquals(code, r.bodyAsJsonObject().getString("code"), r.bodyAsString());
    assertNotNull(r.bodyAsJsonObject().getString("error"));
  }

  @Test
  void aSecondRunWhileOneIsGoingIsRefusedAndTheCliComparesWithTheBaseline() throws Exception {
    HttpResponse<Buffer> first = post(new JsonObject().put("suite", new JsonArray().add("hidden_instructions")));
    assertEquals(202, first.statusCode(), first.bodyAsString());
    HttpResponse<Buffer> second = post(new JsonObject().put("suite", new JsonArray().add("hidden_instructions")));
    assertEquals(429, second.statusCode(), second.bodyAsString());
    assertEquals("too_many_runs", second.bodyAsJsonObject().getString("code"));
    String id = first.bodyAsJsonObject().getString("executionId");
    await(new SseClient(vertx, app.port()).get("/api/adversarial/runs/" + id + "/events", null,
        e -> "done".equals(e.type())), 600);
    JsonObject done = get("/api/adversarial/runs/" + id, 200);
    assertEquals("completed", done.getString("status"), done.encode());

    // the CLI: a second run of the same suite and size is compared with the first (the stored baseline)
    Path out = Files.createTempFile("adversarial-", ".json");
    int code = new CommandLine(new Main()).execute("adversarial", "--suite", "hidden_instructions", "--url",
        "http://127.0.0.1:" + app.port(), "--json", out.toString());
    JsonObject cliRun = new JsonObject(Files.readString(out));
    assertEquals(id, cliRun.getJsonObject("report").getString("baselineExecutionId"));
    assertEquals(cliRun.getJsonObject("report").getJsonArray("regressions").isEmpty() ? 0 : 1, code);
    // against a saved report whose detection rate this run cannot reach, the CLI exits 1
    JsonObject impossible = new JsonObject().put("types", new JsonObject().put("hidden_instructions",
        new JsonObject().put("detectionRate", 2.0)));
    Path baseline = Files.createTempFile("adversarial-baseline-", ".json");
    Files.writeString(baseline, impossible.encode());
    Double rate = cliRun.getJsonObject("report").getJsonObject("types").getJsonObject("hidden_instructions")
        .getDouble("detectionRate");
    int regressed = new CommandLine(new Main()).execute("adversarial", "--suite", "hidden_instructions", "--url",
        "http://127.0.0.1:" + app.port(), "--baseline", baseline.toString());
    assertEquals(rate == null ? 0 : 1, regressed);
    // a run that cannot start: exit 2
    assertEquals(2, new CommandLine(new Main()).execute("adversarial", "--suite", "teleportation", "--url",
        "http://127.0.0.1:" + app.port()));
  }
}
