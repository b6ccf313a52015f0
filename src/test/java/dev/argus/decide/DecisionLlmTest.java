package dev.argus.decide;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeLlmServer;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
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

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The LLM path of decisions against a fake OpenAI-compatible provider (a real HTTP server speaking its protocol):
 * valid JSON is used (and its versions recorded); malformed JSON gets exactly one repair, then the rule path; a
 * provider that goes down in the middle of a decision (after Think) leaves Observe on the rule path and the
 * decision is still made.
 */
class DecisionLlmTest {

  private static Vertx vertx;
  private static FakeOpenAiServer llm;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(16).release(); // see DecisionServiceTest
    // Known start-up stall outside decide (reported in notes/decide.md): ServiceFactory builds the LLM client's
    // OkHttpClient on the event loop, and okhttp's first build (TLS platform, class loading) takes seconds on a loaded
    // 2-core machine. Its one-time class initialisation is done here, on the test thread, so that the guard watches
    // the decision path.
    new okhttp3.OkHttpClient.Builder().build().dispatcher().executorService().shutdown();
    vertx = Vertx.vertx();
    llm = await(FakeOpenAiServer.start(vertx));
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("decide", "scoringDir", DecisionServiceTest.CONF.resolve("scoring").toString())
        .with("decide", "policiesDir", DecisionServiceTest.CONF.resolve("policies").toString());
    JsonObject raw = conf.raw().copy();
    raw.getJsonObject("llm").mergeIn(llm.conf().put("maxRetries", 0).put("breakerFailures", 50));
    app = await(TestApp.start(vertx, ArgusConfig.from(raw)));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    HttpResponse<Buffer> load = await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(DecisionWorld.jsonl())));
    assertEquals(201, load.statusCode(), load.bodyAsString());
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(llm.close());
    await(vertx.close());
  }

  static String system(FakeLlmServer.Recorded r) {
    JsonArray messages = r.body().getJsonArray("messages", new JsonArray());
    return messages.isEmpty() ? "" : String.valueOf(messages.getJsonObject(0).getString("content"));
  }

  static boolean think(FakeLlmServer.Recorded r) {
    return system(r).startsWith("You are a fraud analyst");
  }

  static boolean observe(FakeLlmServer.Recorded r) {
    return system(r).startsWith("You review a fraud risk score");
  }

  static JsonObject decide(String sellerId) {
    HttpResponse<Buffer> r = await(client.post("/api/decisions/onboarding").putHeader("Content-Type", "application/json")
        .sendJsonObject(new JsonObject().put("sellerId", sellerId).put("asOf", DecisionWorld.AS_OF)));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject();
  }

  static List<JsonObject> logs(JsonObject d) {
    return d.getJsonObject("trace").getJsonArray("events").stream().map(o -> (JsonObject) o)
        .filter(e -> "agent_log".equals(e.getString("type"))).map(e -> e.getJsonObject("data")).toList();
  }

  private static void respond(Function<FakeLlmServer.Recorded, FakeReply> f) {
    llm.respondWith(f);
  }

  @Test
  void validJsonIsUsedAndItsVersionsRecorded() {
    respond(r -> think(r) ? FakeReply.text(new JsonObject().put("hypotheses", new JsonArray().add("synthetic_identity"))
        .put("rationale", "new seller: check identity").encode())
        : observe(r) ? FakeReply.text(new JsonObject().put("adjustment", 5).put("rationale", "thin history")
        .put("citations", new JsonArray().add("[source:seller_profile:0]")).encode()) : FakeReply.error(400));
    JsonObject d = decide("S-OK");
    JsonObject paths = d.getJsonObject("llm").getJsonObject("paths");
    assertEquals("llm", paths.getString("think"));
    assertEquals("llm", paths.getString("observe"));
    assertEquals(List.of("synthetic_identity"), d.getJsonArray("hypotheses").getList());
    // synthetic_identity plans seller_profile and watchlist_match only
    assertEquals(List.of("seller_profile", "watchlist_match"), d.getJsonArray("tools").stream()
        .map(o -> ((JsonObject) o).getString("tool")).toList());
    // every signal at its no-risk level: 0, plus the model's cited +5
    assertEquals(5.0, d.getDouble("riskScore"));
    assertEquals(5.0, d.getJsonObject("llmAdjustment").getDouble("applied"));
    assertEquals("fake-model", d.getJsonObject("versions").getString("model"));
    assertTrue(d.getJsonObject("versions").getJsonObject("prompts").getString("think").startsWith("think@"));
    assertTrue(d.getJsonObject("versions").getJsonObject("prompts").getString("observe").startsWith("observe@"));
  }

  @Test
  void anAdjustmentWithoutCitedEvidenceIsRefused() {
    respond(r -> think(r) ? FakeReply.text("{\"hypotheses\": [\"synthetic_identity\", \"bust_out\"], \"rationale\": \"all\"}")
        : observe(r) ? FakeReply.text("{\"adjustment\": 15, \"rationale\": \"gut feeling\", \"citations\": [\"[source:made_up:9]\"]}")
        : FakeReply.error(400));
    JsonObject d = decide("S-OK");
    assertEquals(0.0, d.getDouble("riskScore"));
    assertEquals(0.0, d.getJsonObject("llmAdjustment").getDouble("applied"));
    assertNotNull(d.getJsonObject("llmAdjustment").getString("refused"));
  }

  @Test
  void malformedJsonGetsOneRepairThenTheRulePath() {
    AtomicInteger thinks = new AtomicInteger();
    AtomicInteger observes = new AtomicInteger();
    respond(r -> {
      if (think(r)) {
        thinks.incrementAndGet();
        return FakeReply.text("hypotheses: all of them, I think");
      }
      if (observe(r)) {
        observes.incrementAndGet();
        return FakeReply.text("{\"adjustment\": \"a lot\"}");
      }
      return FakeReply.error(400);
    });
    JsonObject d = decide("S-BAD");
    assertEquals(2, thinks.get(), "the first answer and exactly one repair");
    assertEquals(2, observes.get(), "the first answer and exactly one repair");
    JsonObject paths = d.getJsonObject("llm").getJsonObject("paths");
    assertEquals("rules", paths.getString("think"));
    assertEquals("rules", paths.getString("observe"));
    // the rule path's figures (see DecisionServiceTest): every hypothesis, score 85.84
    assertEquals(85.84, d.getDouble("riskScore"), 1e-9);
    assertEquals(3, d.getJsonArray("tools").size());
    assertTrue(logs(d).stream().anyMatch(l -> l.getBoolean("fallback") && "think".equals(l.getString("phase"))));
    assertTrue(logs(d).stream().anyMatch(l -> l.getBoolean("fallback") && "observe".equals(l.getString("phase"))));
  }

  @Test
  void aProviderOutageMidDecisionLeavesTheRestOnTheRulePath() {
    respond(r -> think(r) ? FakeReply.text("{\"hypotheses\": [\"synthetic_identity\", \"bust_out\"], \"rationale\": \"x\"}")
        : FakeReply.error(503, "{\"error\": {\"message\": \"overloaded\"}}"));
    JsonObject d = decide("S-BAD");
    JsonObject paths = d.getJsonObject("llm").getJsonObject("paths");
    assertEquals("llm", paths.getString("think"));
    assertEquals("rules", paths.getString("observe"));
    assertTrue(d.getJsonObject("llm").getJsonObject("fallbacks").containsKey("observe"));
    assertEquals(85.84, d.getDouble("riskScore"), 1e-9);
    assertEquals("REJECT", d.getString("outcome"));
  }
}
