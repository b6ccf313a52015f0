package dev.argus.eval.golden;

import dev.argus.cli.EvalAgentCommand;
import dev.argus.config.ArgusConfig;
import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.store.EvalStores;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden sets over real HTTP: stored and edited through the API (bad sets rejected, nothing stored), run in the
 * background against real chat runs (the expected-citation recall recomputed from the stored runs), a decision case
 * recorded as failed because the decision capability (deployed) knows no record of its subject, and {@code argus eval-agent} as a CI gate: exit 0
 * against an equal baseline, 1 against a better one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GoldenSetApiTest {

  private Vertx vertx;
  private TestApp app;
  private WebClient web;

  static final JsonObject SET = new JsonObject().put("description", "two questions and a decision")
      .put("questions", new JsonArray()
          .add(new JsonObject().put("id", "refund").put("question", "What is the refund window for card payments?")
              .put("expectedCitations", new JsonArray().add("refund-policy"))
              .put("keyFacts", new JsonArray().add("30 days")))
          .add(new JsonObject().put("id", "holds").put("question", "How long are payouts held for new sellers?")
              .put("expectedCitations", new JsonArray().add("payout-holds:0").add("other-doc"))))
      .put("decisions", new JsonArray().add(new JsonObject().put("id", "d1").put("type", "onboarding")
          .put("subject", "S-1").put("expectedOutcome", "REJECT")));

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    FakeEmbeddingServer embeddings = await(FakeEmbeddingServer.start(vertx));
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir())).with("agent", "cacheTtlMs", 0);
    app = await(TestApp.start(vertx, conf));
    web = WebClient.create(vertx);
    JsonArray docs = new JsonArray()
        .add(new JsonObject().put("id", "refund-policy").put("title", "Refund policy").put("format", "text")
            .put("text", "The refund window for card payments is 30 days. Refunds are paid to the original card."))
        .add(new JsonObject().put("id", "payout-holds").put("title", "Payout holds").put("format", "text")
            .put("text", "New sellers have payouts held for 7 days. Holds are lifted after the first 10 orders."));
    assertEquals(201, await(web.post(app.port(), "127.0.0.1", "/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(new JsonObject().put("documents", docs))).statusCode());
  }

  @AfterAll
  void stop() {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private HttpResponse<Buffer> get(String path) {
    return await(web.get(app.port(), "127.0.0.1", path).send());
  }

  private HttpResponse<Buffer> put(String path, JsonObject body) {
    return await(web.put(app.port(), "127.0.0.1", path).sendJsonObject(body));
  }

  @Test
  void theBundledSetIsThere() {
    JsonObject set = get("/api/eval/sets/sample-kb").bodyAsJsonObject();
    assertEquals(8, set.getJsonArray("questions").size());
    assertTrue(get("/api/eval/sets").bodyAsJsonObject().getJsonArray("sets").stream()
        .anyMatch(s -> "sample-kb".equals(((JsonObject) s).getString("name"))));
  }

  @Test
  void badSetsAreRejectedAndNothingIsStored() {
    assertError(put("/api/eval/sets/bad", new JsonObject().put("questions", new JsonArray())), 400, "empty_set");
    assertError(put("/api/eval/sets/bad", new JsonObject().put("questions", new JsonArray()
        .add(new JsonObject().put("question", "")))), 400, "missing_field");
    assertError(put("/api/eval/sets/bad", new JsonObject().put("decisions", new JsonArray()
        .add(new JsonObject().put("type", "refund").put("subject", "S-1").put("expectedOutcome", "REJECT")))),
        400, "invalid_field");
    assertError(put("/api/eval/sets/bad", new JsonObject().put("questions", new JsonArray()
        .add(new JsonObject().put("id", "a").put("question", "q")).add(new JsonObject().put("id", "a").put("question", "r")))),
        400, "duplicate_id");
    assertError(put("/api/eval/sets/bad", new JsonObject().put("name", "other").put("questions", new JsonArray()
        .add(new JsonObject().put("question", "q")))), 400, "name_mismatch");
    assertError(put("/api/eval/sets/bad%20name", SET), 400, "invalid_name");
    assertError(get("/api/eval/sets/bad"), 404, "unknown_set");
    assertError(await(web.post(app.port(), "127.0.0.1", "/api/eval/sets/bad/runs").send()), 404, "unknown_set");
  }

  @Test
  void aSetIsEditedRunAndGatedByTheCli() throws Exception {
    assertEquals(200, put("/api/eval/sets/mini", SET.copy().put("description", "first")).statusCode());
    assertEquals(200, put("/api/eval/sets/mini", SET).statusCode());
    assertEquals("two questions and a decision", get("/api/eval/sets/mini").bodyAsJsonObject().getString("description"));

    HttpResponse<Buffer> started = await(web.post(app.port(), "127.0.0.1", "/api/eval/sets/mini/runs").send());
    assertEquals(202, started.statusCode(), started.bodyAsString());
    String resultId = started.bodyAsJsonObject().getString("resultId");
    assertEquals("/api/eval/sets/mini/results/" + resultId, started.getHeader("Location"));
    JsonObject result = null;
    for (int i = 0; i < 600; i++) {
      result = get("/api/eval/sets/mini/results/" + resultId).bodyAsJsonObject();
      if ("completed".equals(result.getString("status"))) {
        break;
      }
      Thread.sleep(100);
    }
    assertEquals("completed", result.getString("status"), result.encode());
    JsonArray cases = result.getJsonArray("cases");
    assertEquals(3, cases.size());
    JsonObject decision = cases.getJsonObject(2);
    // the decision capability is deployed, but no records are loaded: seller S-1 is unknown, the case fails as such
    assertEquals("failed", decision.getString("status"));
    assertEquals("unknown_record", decision.getString("code"), decision.encode());
    // the expected-citation recall of each question, recomputed from its stored run
    double sum = 0;
    for (int i = 0; i < 2; i++) {
      JsonObject c = cases.getJsonObject(i);
      assertEquals("ok", c.getString("status"), c.encode());
      JsonObject run = get("/api/runs/" + c.getString("runId")).bodyAsJsonObject();
      List<String> expected = i == 0 ? List.of("refund-policy") : List.of("payout-holds:0", "other-doc");
      double recall = GoldenScores.expectedCitationRecall(expected, ChatRunView.fromRun(run));
      assertEquals(recall, c.getJsonObject("metrics").getDouble("expectedCitationRecall"), 1e-6);
      sum += recall;
    }
    assertEquals(sum / 2, result.getJsonObject("metrics").getDouble("expectedCitationRecall"), 1e-6);
    assertEquals(1.0, result.getJsonObject("metrics").getDouble("failedCases"));

    // the CLI against the previous result (same system, no LLM: the same answers) passes
    String out = cli(0, "--set", "mini", "--baseline", "previous", "--url", "http://127.0.0.1:" + app.port());
    assertTrue(out.contains("baseline: " + resultId), out);
    assertTrue(out.contains("PASS"), out);
    // against a baseline that was better on expected-citation recall it fails
    JsonObject better = result.copy().put("resultId", "better-baseline");
    better.getJsonObject("metrics").put("expectedCitationRecall",
        result.getJsonObject("metrics").getDouble("expectedCitationRecall") + 0.5);
    await(EvalStores.create(app.main().services().database()).saveSetResult("better-baseline", "mini", 1, better));
    String failed = cli(1, "--set", "mini", "--baseline", "better-baseline", "--url", "http://127.0.0.1:" + app.port());
    assertTrue(failed.contains("FELL"), failed);
    // results are kept: the two CLI runs and the first
    assertTrue(get("/api/eval/sets/mini/results").bodyAsJsonObject().getJsonArray("results").size() >= 4);
    // an unknown baseline is an error (exit 2)
    cli(2, "--set", "mini", "--baseline", "nope", "--url", "http://127.0.0.1:" + app.port());
  }

  private static String cli(int expectedExit, String... args) {
    PrintStream old = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int code;
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      code = new CommandLine(new EvalAgentCommand()).execute(args);
    } finally {
      System.setOut(old);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    assertEquals(expectedExit, code, out);
    return out;
  }

  static void assertError(HttpResponse<Buffer> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    assertEquals(code, r.bodyAsJsonObject().getString("code"), r.bodyAsString());
    assertNotNull(r.bodyAsJsonObject().getString("error"));
    assertFalse(r.bodyAsJsonObject().getString("error").isEmpty());
  }
}
