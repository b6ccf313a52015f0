package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chat API end to end over real HTTP and SSE, no LLM: event order and ids, replay, disconnect, errors. */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChatSseTest {

  private Vertx vertx;
  private AgentHarness app;
  private SseClient sse;
  private WebClient web;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ArgusConfig conf = AgentHarness.config();
    app = await(AgentHarness.start(vertx, conf, Corpus.standard()));
    sse = new SseClient(vertx, app.port());
    web = WebClient.create(vertx);
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private SseClient.Result chat(String question) throws Exception {
    return await(sse.post("/api/chat", new JsonObject().put("question", question), null));
  }

  @Test
  void answersWithCitationsAndOrderedEvents() throws Exception {
    SseClient.Result r = chat("How long do refunds take to be processed?");
    assertEquals(200, r.status());
    List<String> types = r.types();
    assertEquals("run", types.get(0));
    assertEquals("final", types.get(types.size() - 1), types.toString());
    // ids are 1, 2, 3, ... without gaps
    for (int i = 0; i < r.events().size(); i++) {
      assertEquals(i + 1, r.events().get(i).id(), "event " + i + " " + types);
    }
    String runId = r.events().get(0).data().getString("runId");
    assertEquals(runId, r.headers().get("X-Run-Id"));
    // phases start and end in TPAOR order
    List<String> phases = new ArrayList<>();
    for (SseClient.Event e : r.all("phase")) {
      phases.add(e.data().getString("name") + ":" + e.data().getString("status"));
    }
    assertEquals(List.of("think:start", "think:end", "plan:start", "plan:end", "act:start", "act:end", "observe:start",
        "observe:end", "reflect:start", "reflect:end"), phases);
    // tools run inside act; the answer's tokens stream only after Reflect decided, then citations, verification, final
    int actStart = indexOf(r, "phase", "act", "start");
    int actEnd = indexOf(r, "phase", "act", "end");
    int firstToolCall = types.indexOf("tool_call");
    assertTrue(firstToolCall > actStart && firstToolCall < actEnd, types.toString());
    assertEquals("knowledge_search", r.events().get(firstToolCall).data().getString("tool"));
    int firstToken = types.indexOf("token");
    assertTrue(firstToken > indexOf(r, "phase", "reflect", "end"), types.toString());
    assertFalse(types.contains("draft"), types.toString()); // the extractive composer has no draft to withdraw
    assertTrue(types.indexOf("citations") > types.lastIndexOf("token"));
    assertTrue(types.indexOf("verification") > types.indexOf("citations"));

    JsonObject fin = r.last("final").data();
    String answer = fin.getString("answer");
    assertTrue(answer.contains("14 days"), answer);
    assertTrue(answer.contains("[cite:refund-policy:1]"), answer);
    assertTrue(fin.getBoolean("verified"), fin.encodePrettily());
    assertTrue(fin.getDouble("confidence") > 0.5 && fin.getDouble("confidence") <= 1.0, fin.encode());
    JsonArray cits = fin.getJsonArray("citations");
    assertTrue(cits.stream().map(JsonObject.class::cast).anyMatch(c -> "refund-policy".equals(c.getString("documentId"))
        && c.getInteger("chunkIndex") == 1 && "Refund policy".equals(c.getString("title"))
        && c.getString("snippet").startsWith("Refunds are processed")), cits.encode());
    // tokens stream the composed answer
    StringBuilder streamed = new StringBuilder();
    r.all("token").forEach(t -> streamed.append(t.data().getString("text")));
    assertEquals(answer, streamed.toString());

    // the run record has every phase, the evidence and the chain of thought
    JsonObject run = await(web.get(app.port(), "127.0.0.1", "/api/runs/" + runId).send()).bodyAsJsonObject();
    assertEquals("completed", run.getString("status"));
    for (dev.argus.agent.phases.Phase p : dev.argus.agent.phases.Phase.values()) {
      assertEquals("rules", run.getJsonObject("phases").getJsonObject(p.wire()).getString("path"), p.wire());
    }
    assertTrue(run.getJsonArray("evidence").size() >= 1);
    JsonObject ev0 = run.getJsonArray("evidence").getJsonObject(0);
    assertEquals(0, ev0.getInteger("index"));
    assertEquals("knowledge_search", ev0.getString("tool"));
    assertTrue(ev0.getBoolean("success"));
    assertNotNull(ev0.getLong("durationMs"));
    assertEquals(5, run.getJsonArray("chainOfThought").size());
    assertEquals(answer, run.getJsonObject("result").getString("answer"));
    assertEquals(5, run.getJsonObject("timings").getJsonArray("overheadMs").size());
  }

  private static int indexOf(SseClient.Result r, String type, String name, String status) {
    for (int i = 0; i < r.events().size(); i++) {
      SseClient.Event e = r.events().get(i);
      if (e.type().equals(type) && name.equals(e.data().getString("name")) && status.equals(e.data().getString("status"))) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void lastEventIdReplaysWhatWasMissed() throws Exception {
    SseClient.Result full = chat("How long does standard shipping take?");
    String runId = full.events().get(0).data().getString("runId");
    SseClient.Result tail = await(sse.get("/api/runs/" + runId + "/events", "3", null));
    assertEquals(200, tail.status());
    assertEquals(full.events().size() - 3, tail.events().size());
    for (int i = 0; i < tail.events().size(); i++) {
      SseClient.Event a = full.events().get(i + 3);
      SseClient.Event b = tail.events().get(i);
      assertEquals(a.id(), b.id());
      assertEquals(a.type(), b.type());
      assertEquals(a.data(), b.data());
    }
    // the whole log from the start, by query parameter
    SseClient.Result whole = await(sse.get("/api/runs/" + runId + "/events?lastEventId=0", null, null));
    assertEquals(full.types(), whole.types());
    // unknown run -> 404 JSON, invalid id -> 400
    SseClient.Result missing = await(sse.get("/api/runs/nope/events", null, null));
    assertEquals(404, missing.status());
    assertEquals("unknown_run", new JsonObject(missing.body()).getString("code"));
    SseClient.Result bad = await(sse.get("/api/runs/" + runId + "/events", "abc", null));
    assertEquals(400, bad.status());
  }

  @Test
  void clientDisconnectDoesNotDisturbTheRun() throws Exception {
    SseClient.Result cut = await(sse.post("/api/chat", new JsonObject().put("question", "Which sellers are reviewed manually?"),
        e -> e.type().equals("phase")));
    String runId = cut.events().get(0).data().getString("runId");
    assertFalse(cut.types().contains("final"));
    // reconnect after what we saw: the rest arrives, ending with final
    long last = cut.events().get(cut.events().size() - 1).id();
    SseClient.Result rest = await(sse.get("/api/runs/" + runId + "/events", String.valueOf(last), null));
    assertEquals(last + 1, rest.events().get(0).id());
    assertEquals("final", rest.events().get(rest.events().size() - 1).type());
    assertTrue(rest.last("final").data().getString("answer").contains("[cite:seller-onboarding:1]"),
        rest.last("final").data().encode());
    JsonObject run = await(web.get(app.port(), "127.0.0.1", "/api/runs/" + runId).send()).bodyAsJsonObject();
    assertEquals("completed", run.getString("status"));
  }

  @Test
  void smallTalkNeedsNoTools() throws Exception {
    SseClient.Result r = chat("Hello!");
    assertFalse(r.types().contains("tool_call"), r.types().toString());
    JsonObject fin = r.last("final").data();
    assertEquals("smalltalk", fin.getString("kind"));
    assertTrue(fin.getJsonArray("citations").isEmpty());
  }

  @Test
  void badRequestsAre4xxJson() throws Exception {
    assertError(sse.postRaw("/api/chat", "{\"question\": \"\"}", "application/json"), 400, "empty_field");
    assertError(sse.postRaw("/api/chat", new JsonObject().put("question", "x".repeat(2001)).encode(), "application/json"),
        400, "field_too_long");
    assertError(sse.postRaw("/api/chat", "{\"question\": ", "application/json"), 400, "invalid_json");
    assertError(sse.postRaw("/api/chat", "{}", "application/json"), 400, "missing_field");
    assertError(sse.postRaw("/api/chat", "{\"question\": 3}", "application/json"), 400, "invalid_field");
    assertError(sse.postRaw("/api/chat", new JsonObject().put("question", "refunds?").put("profile", "nope").encode(),
        "application/json"), 400, "unknown_profile");
    assertError(sse.postRaw("/api/chat", "question=x", "application/x-www-form-urlencoded"), 415, "unsupported_media_type");
    assertError(sse.postRaw("/api/chat", new JsonObject().put("question", "refunds?").put("stripMarkup", "yes").encode(),
        "application/json"), 400, "invalid_field");
    SseClient.Result notFound = await(web.get(app.port(), "127.0.0.1", "/api/runs/does-not-exist").send()
        .map(r -> new SseClient.Result(r.statusCode(), r.headers(), List.of(), 0, r.bodyAsString())));
    assertEquals(404, notFound.status());
  }

  private static void assertError(Future<SseClient.Result> f, int status, String code) throws Exception {
    SseClient.Result r = await(f);
    assertEquals(status, r.status(), r.body());
    assertEquals(code, new JsonObject(r.body()).getString("code"), r.body());
  }
}
