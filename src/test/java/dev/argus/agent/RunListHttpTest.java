package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /api/runs}: chat runs are listed newest first, paged with {@code before=next}; bad parameters are 400. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunListHttpTest {

  private Vertx vertx;
  private AgentHarness app;
  private SseClient sse;
  private WebClient web;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ArgusConfig conf = AgentHarness.config().with("agent", "cacheTtlMs", 0);
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

  private String chat(String q) throws Exception {
    SseClient.Result r = await(sse.post("/api/chat", new JsonObject().put("question", q), null));
    assertEquals("final", r.types().get(r.types().size() - 1));
    return r.events().get(0).data().getString("runId");
  }

  private HttpResponse<Buffer> get(String uri) throws Exception {
    return await(web.get(app.port(), "127.0.0.1", uri).send());
  }

  @Test
  void chatRunsAreListedNewestFirstAndPaged() throws Exception {
    String longQuestion = "What is the refund policy " + "and what else ".repeat(30) + "?";
    String first = chat("What is the refund policy?");
    Thread.sleep(5); // distinct creation milliseconds, so the cursor splits the two runs
    String second = chat(longQuestion);

    HttpResponse<Buffer> resp = get("/api/runs?limit=2");
    assertEquals(200, resp.statusCode(), resp.bodyAsString());
    JsonArray items = resp.bodyAsJsonObject().getJsonArray("items");
    assertEquals(List.of(second, first), items.stream().map(o -> ((JsonObject) o).getString("runId")).toList());
    JsonObject newest = items.getJsonObject(0);
    assertEquals("completed", newest.getString("status"));
    assertEquals(200, newest.getString("question").length());
    assertEquals(longQuestion.substring(0, 200), newest.getString("question"));
    assertNotNull(newest.getString("profile"));
    assertTrue(newest.getLong("createdAt") > 0);
    assertEquals(newest.getLong("updatedAt"), newest.getLong("finishedAt"));
    JsonObject older = items.getJsonObject(1);
    assertEquals("What is the refund policy?", older.getString("question"));
    // a full page tells where the next one starts: strictly before the last item
    long next = resp.bodyAsJsonObject().getLong("next");
    assertEquals(older.getLong("createdAt"), next);

    JsonObject page = get("/api/runs?limit=1").bodyAsJsonObject();
    assertEquals(second, page.getJsonArray("items").getJsonObject(0).getString("runId"));
    JsonObject nextPage = get("/api/runs?limit=1&before=" + page.getLong("next")).bodyAsJsonObject();
    assertEquals(first, nextPage.getJsonArray("items").getJsonObject(0).getString("runId"));

    JsonObject completed = get("/api/runs?status=completed&limit=200").bodyAsJsonObject();
    assertTrue(completed.getJsonArray("items").stream().anyMatch(o -> second.equals(((JsonObject) o).getString("runId"))));
    assertFalse(completed.containsKey("next"), "a page that is not full has no next");
    JsonObject running = get("/api/runs?status=running").bodyAsJsonObject();
    assertTrue(running.getJsonArray("items").stream().noneMatch(o -> second.equals(((JsonObject) o).getString("runId"))));
  }

  @Test
  void badParametersAre400WithACode() throws Exception {
    for (String uri : List.of("/api/runs?limit=0", "/api/runs?limit=201", "/api/runs?limit=abc", "/api/runs?limit=-5",
        "/api/runs?status=done", "/api/runs?status=RUNNING", "/api/runs?before=-1", "/api/runs?before=soon")) {
      HttpResponse<Buffer> resp = get(uri);
      assertEquals(400, resp.statusCode(), uri + ": " + resp.bodyAsString());
      JsonObject body = resp.bodyAsJsonObject();
      assertEquals("invalid_parameter", body.getString("code"), uri);
      assertNotNull(body.getString("error"), uri);
    }
  }
}
