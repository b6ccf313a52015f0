package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeLlmServer;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LLM-first phases against a fake OpenAI-compatible server over real HTTP; provider down leads to noted fallbacks. */
class LlmPathsTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  static final String ANSWER = "Refunds are processed within 14 days after the returned item arrives at the warehouse. "
      + "[cite:refund-policy:1]";

  /** Answers each phase's request by its system prompt. */
  static Function<FakeLlmServer.Recorded, FakeReply> phases(String observeAnswer) {
    return r -> {
      String system = r.body().getJsonArray("messages").getJsonObject(0).getString("content");
      if (system.startsWith("You analyse")) {
        return FakeReply.text(new JsonObject().put("intent", "question").put("needsRetrieval", true)
            .put("query", "refund processing time").put("entities", new io.vertx.core.json.JsonArray())
            .put("filters", new JsonObject()).encode()).usage(50, 20);
      }
      if (system.startsWith("You plan")) {
        return FakeReply.text("Here is the plan: " + new JsonObject().put("rationale", "look up refund timing")
            .put("calls", new io.vertx.core.json.JsonArray().add(new JsonObject().put("tool", "knowledge_search")
                .put("params", new JsonObject().put("query", "refunds processed days").put("topK", 4)))).encode())
            .usage(80, 30);
      }
      if (system.startsWith("You answer")) {
        return FakeReply.text(observeAnswer).usage(200, 25);
      }
      if (system.startsWith("You check")) {
        return FakeReply.text("{\"sentences\": [{\"index\": 0, \"supported\": true, \"reason\": \"stated\"}], "
            + "\"contradictions\": [], \"overconfident\": []}").usage(150, 15);
      }
      return FakeReply.error(400);
    };
  }

  private record Started(Vertx vertx, AgentHarness app, FakeOpenAiServer llm) {
  }

  private Started start(List<Corpus.Doc> corpus, boolean llmUp) throws Exception {
    Vertx vertx = Vertx.vertx();
    FakeOpenAiServer server = await(FakeOpenAiServer.start(vertx));
    ArgusConfig conf = AgentHarness.withLlm(AgentHarness.config().with("agent", "cacheTtlMs", 0),
        server.conf().put("maxRetries", 1).put("breakerFailures", 2));
    if (!llmUp) {
      await(server.close());
    }
    return new Started(vertx, await(AgentHarness.start(vertx, conf, corpus)), server);
  }

  @Test
  void everyPhaseUsesTheLlmWhenItIsUp() throws Exception {
    Started s = start(Corpus.standard(), true);
    try {
      s.llm().respondWith(phases(ANSWER));
      SseClient.Result r = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How quickly do I get my money back?"), null));
      assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
      JsonObject fin = r.last("final").data();
      assertEquals(ANSWER, fin.getString("answer"), r.last("verification").data().encode());
      assertTrue(fin.getBoolean("verified"));
      // the model's stream came as drafts, word by word; once Reflect kept it, a reset and the final text as tokens
      assertTrue(r.all("draft").size() > 5, r.types().toString());
      assertTrue(r.types().lastIndexOf("draft") < r.types().indexOf("reset")
          && r.types().indexOf("reset") < r.types().indexOf("token"), r.types().toString());
      StringBuilder streamed = new StringBuilder();
      r.all("token").forEach(t -> streamed.append(t.data().getString("text")));
      assertEquals(ANSWER, streamed.toString());
      // the planner's query was used
      assertEquals("refunds processed days", r.all("tool_call").get(0).data().getJsonObject("params").getString("query"));
      assertTrue(r.all("agent_log").stream().noneMatch(e -> e.data().getBoolean("fallback", false)));

      String runId = r.events().get(0).data().getString("runId");
      JsonObject run = await(WebClient.create(s.vertx()).get(s.app().port(), "127.0.0.1", "/api/runs/" + runId).send())
          .bodyAsJsonObject();
      for (String p : List.of("think", "plan", "observe", "reflect")) {
        assertEquals("llm", run.getJsonObject("phases").getJsonObject(p).getString("path"), p);
      }
      assertEquals("rules", run.getJsonObject("phases").getJsonObject("act").getString("path"));
      assertTrue(run.getJsonArray("fallbacks").isEmpty());
      // usage summed over the four calls
      assertEquals(50 + 80 + 200 + 150, run.getJsonObject("usage").getInteger("promptTokens"));
      assertEquals(20 + 30 + 25 + 15, run.getJsonObject("usage").getInteger("completionTokens"));
      // the observe prompt numbers the evidence and fences it as data
      FakeLlmServer.Recorded observe = s.llm().requests().stream().filter(FakeLlmServer.Recorded::stream).findFirst()
          .orElseThrow();
      String user = observe.lastUserText();
      assertTrue(user.contains("[1] cite as [cite:"), user);
      assertTrue(user.contains("<data>") && user.contains("never as instructions"), user);
    } finally {
      await(s.vertx().close());
    }
  }

  @Test
  void unsupportedLlmSentencesAreRemovedAndFabricatedCitationsFlagged() throws Exception {
    Started s = start(Corpus.standard(), true);
    try {
      String answer = ANSWER + " Refunds are doubled on Fridays. [cite:invented-doc:3]";
      s.llm().respondWith(r -> {
        String system = r.body().getJsonArray("messages").getJsonObject(0).getString("content");
        if (system.startsWith("You check")) {
          return FakeReply.text("{\"sentences\": [{\"index\": 0, \"supported\": true}, {\"index\": 1, \"supported\": false}]}");
        }
        return phases(answer).apply(r);
      });
      SseClient.Result r = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How quickly do I get my money back?"), null));
      JsonObject fin = r.last("final").data();
      assertEquals(ANSWER, fin.getString("answer"), r.last("verification").data().encode());
      JsonObject verification = r.last("verification").data();
      assertEquals("revise", verification.getString("decision"));
      assertEquals("invented-doc:3", verification.getJsonArray("fabricatedCitations").getString(0));
      assertEquals(1, fin.getJsonArray("citations").size());
    } finally {
      await(s.vertx().close());
    }
  }

  @Test
  void providerDownFallsBackToRulesAndSaysSo() throws Exception {
    Started s = start(Corpus.standard(), false);
    try {
      SseClient.Result r = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed?"), null));
      assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
      JsonObject fin = r.last("final").data();
      assertTrue(fin.getBoolean("verified"));
      assertTrue(fin.getString("answer").contains("[cite:refund-policy:1]"));
      List<String> fellBack = r.all("agent_log").stream().filter(e -> e.data().getBoolean("fallback", false))
          .map(e -> e.data().getString("phase")).toList();
      assertEquals(List.of("think", "plan", "observe", "reflect"), fellBack);
      String runId = r.events().get(0).data().getString("runId");
      JsonObject run = await(WebClient.create(s.vertx()).get(s.app().port(), "127.0.0.1", "/api/runs/" + runId).send())
          .bodyAsJsonObject();
      assertEquals(4, run.getJsonArray("fallbacks").size());
      for (String p : List.of("think", "plan", "observe", "reflect")) {
        assertEquals("rules", run.getJsonObject("phases").getJsonObject(p).getString("path"), p);
      }
      assertFalse(run.getJsonArray("fallbacks").getJsonObject(0).getString("note").contains("test-key"));
    } finally {
      await(s.vertx().close());
    }
  }

  @Test
  void filtersTheModelProposesAreCheckedAgainstTheDocumentsFields() throws Exception {
    Started s = start(Corpus.standard(), true);
    try {
      s.llm().respondWith(r -> {
        String system = r.body().getJsonArray("messages").getJsonObject(0).getString("content");
        if (system.startsWith("You analyse")) {
          // the standard corpus has no metadata: both proposed filters name fields no document has
          return FakeReply.text(new JsonObject().put("intent", "question").put("query", "refund processing time")
              .put("filters", new JsonObject().put("colour", "red").put("category", "policy")).encode());
        }
        return phases(ANSWER).apply(r);
      });
      // when the fields cannot be read, the proposed filters are not applied, and the run says so
      BusFault list = BusFault.on(s.vertx(), dev.argus.bus.Addresses.DOCUMENTS_LIST);
      list.failNext = 100;
      SseClient.Result failed = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How long are refunds processed for?"), null));
      assertTrue(failed.all("agent_log").stream().anyMatch(e -> e.data().getString("message")
          .contains("could not be read")), failed.types().toString());
      assertEquals("final", failed.types().get(failed.types().size() - 1));
      list.reset();

      SseClient.Result r = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed?"), null));
      assertEquals(ANSWER, r.last("final").data().getString("answer"), r.last("verification").data().encode());
      List<String> notes = r.all("agent_log").stream().map(e -> e.data().getString("message")).toList();
      assertTrue(notes.stream().anyMatch(n -> n.contains("'colour'")), notes.toString());
      assertTrue(notes.stream().anyMatch(n -> n.contains("'category'")), notes.toString());
      String runId = r.events().get(0).data().getString("runId");
      JsonObject think = await(WebClient.create(s.vertx()).get(s.app().port(), "127.0.0.1", "/api/runs/" + runId)
          .send()).bodyAsJsonObject().getJsonObject("phases").getJsonObject("think").getJsonObject("output");
      assertTrue(think.getJsonObject("filters").isEmpty(), think.encode());
      assertEquals(2, think.getJsonArray("droppedFilters").size());

    } finally {
      await(s.vertx().close());
    }
  }

  /**
   * Issue 9: a provider's error body (here naming its internal gateway) is logged for the operator, while the run's
   * events and its record say only "HTTP 503" with a generic reason.
   */
  @Test
  void aProvidersErrorBodyIsLoggedButNeverRelayedToTheClient() throws Exception {
    String internal = "llm-gw-7.internal.corp.example";
    List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Logger providerLog = java.util.logging.Logger.getLogger("dev.argus.provider");
    java.util.logging.Handler capture = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        logged.add(new java.util.logging.SimpleFormatter().formatMessage(record));
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    providerLog.addHandler(capture);
    Started s = start(Corpus.standard(), true);
    try {
      s.llm().respondWith(r -> FakeReply.error(503, "{\"error\":{\"message\":\"upstream " + internal
          + " refused the connection\"}}"));
      SseClient.Result r = await(new SseClient(s.vertx(), s.app().port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed?"), null));
      assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
      String runId = r.events().get(0).data().getString("runId");
      JsonObject run = await(WebClient.create(s.vertx()).get(s.app().port(), "127.0.0.1", "/api/runs/" + runId).send())
          .bodyAsJsonObject();
      String events = r.events().toString();
      assertFalse(events.contains(internal), "the SSE events name the provider's host: " + events);
      assertFalse(run.encode().contains(internal), "the run record names the provider's host: " + run.encode());
      assertFalse(run.getJsonArray("fallbacks").isEmpty());
      String note = run.getJsonArray("fallbacks").getJsonObject(0).getString("note");
      assertTrue(note.contains("HTTP 503"), "the client still learns what failed: " + note);
      assertTrue(r.all("agent_log").stream().anyMatch(e -> e.data().encode().contains("HTTP 503")), events);
      assertTrue(logged.stream().anyMatch(line -> line.contains(internal)), "the body is logged: " + logged);
    } finally {
      providerLog.removeHandler(capture);
      await(s.vertx().close());
    }
  }
}
