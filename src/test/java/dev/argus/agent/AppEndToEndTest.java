package dev.argus.agent;

import dev.argus.app.Services;
import dev.argus.agent.compose.Composition;
import dev.argus.agent.compose.EvidenceChunk;
import dev.argus.agent.compose.ExtractiveComposer;
import dev.argus.agent.compose.QuestionAnalysis;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole service (MainVerticle: real SQLite knowledge store, real bundled embedder, ingestion, retrieval, agent,
 * HTTP): chat over SSE answered from documents ingested through the API, unknown namespace rejected, the composer scoring with real embeddings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppEndToEndTest {

  private Vertx vertx;
  private TestApp app;
  private Services services;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, AgentHarness.config()));
    services = app.main().services();
    await(AgentHarness.seed(vertx, app.port(), List.of(Corpus.standard().get(0),
        Corpus.doc("shipping", "Shipping times",
            "Standard shipping takes 3 to 5 business days within the country. Express shipping delivers the next business day."),
        new Corpus.Doc("fraud-rings", "risk", "Fraud rings",
            List.of("Fraud rings often share bank accounts and devices across many seller accounts.")))));
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  @Test
  void chatAnswersFromTheRealStoreWithCitations() throws Exception {
    SseClient.Result r = await(new SseClient(vertx, app.port()).post("/api/chat",
        new JsonObject().put("question", "How many days until my refund is processed?"), null));
    assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
    JsonObject fin = r.last("final").data();
    assertTrue(fin.getString("answer").contains("14 days"), fin.getString("answer"));
    assertTrue(fin.getString("answer").contains("[cite:refund-policy:1]"), fin.getString("answer"));
    assertTrue(fin.getBoolean("verified"));
    // neighbours of the top hit came from the DocumentsVerticle over the bus
    assertTrue(r.all("tool_result").stream().anyMatch(e -> "get_chunk_neighbours".equals(e.data().getString("tool"))
        && e.data().getBoolean("success")), r.all("tool_result").toString());
    // a namespace that holds documents is accepted, an unknown one is 400
    SseClient.Result risk = await(new SseClient(vertx, app.port()).post("/api/chat",
        new JsonObject().put("question", "What do fraud rings share?").put("namespace", "risk"), null));
    assertTrue(risk.last("final").data().getString("answer").contains("[cite:fraud-rings:0]"),
        risk.last("final").data().encode());
    var bad = await(WebClient.create(vertx).post(app.port(), "127.0.0.1", "/api/chat")
        .sendJsonObject(new JsonObject().put("question", "hello?").put("namespace", "nope")));
    assertEquals(400, bad.statusCode());
    assertEquals("unknown_namespace", bad.bodyAsJsonObject().getString("code"));
  }

  @Test
  void composerPicksTheSentenceThatAnswersWithoutAModel() {
    List<EvidenceChunk> evidence = List.of(
        new EvidenceChunk("a", 0, "A", "The warehouse is located in Lyon and opens at eight. "
            + "Parcels leave the warehouse every afternoon.", 0.5, 0, 0),
        new EvidenceChunk("b", 0, "B", "Money is returned to the customer's card about two weeks after the return "
            + "is received. Gift cards are not reimbursed.", 0.5, 1, 0));
    // the warehouse sentences share no content word with the question; b's first sentence names the money and a time
    Composition c = new ExtractiveComposer().compose(QuestionAnalysis.of("When do I get my money back?"), evidence,
        new ExtractiveComposer.Options(8, 60, 1, 0.6));
    assertEquals(1, c.sentences().size());
    assertTrue(c.sentences().get(0).text().startsWith("Money is returned"), c.sentences().toString());
  }
}
