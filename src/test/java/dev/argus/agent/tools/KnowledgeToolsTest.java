package dev.argus.agent.tools;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The knowledge tools ({@link BusTool}s built from {@link KnowledgeTools}' specs) against the whole service: each
 * maps its parameters to its address's request, answers from the real retriever and documents verticle, and
 * summarizes its result; a failure reply fails the call with its status.
 */
@ExtendWith(VertxExtension.class)
class KnowledgeToolsTest {

  /** Three sentences, chunked one a chunk (target 60 characters, no overlap). */
  private static final List<String> SENTENCES = List.of(
      "Refunds are processed within 14 days of the return.",
      "Chargebacks are answered within 7 days by the seller.",
      "Payouts are held while an account takeover is investigated.");

  private static final Map<String, Tool> TOOLS = new HashMap<>();

  @BeforeAll
  static void start(Vertx vertx, VertxTestContext ctx) {
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("ingest", "chunkTargetChars", 60)
        .with("ingest", "chunkMaxChars", 200).with("ingest", "overlapSentences", 0);
    TestApp.start(vertx, conf).compose(app -> WebClient.create(vertx)
            .post(app.port(), "127.0.0.1", "/api/documents").addQueryParam("wait", "true")
            .sendJsonObject(new JsonObject().put("id", "payments-policy").put("title", "Payments policy")
                .put("text", String.join(" ", SENTENCES))))
        .onComplete(ctx.succeeding(response -> ctx.verify(() -> {
          assertEquals(201, response.statusCode(), response.bodyAsString());
          KnowledgeTools.all(vertx, 5_000).forEach(tool -> TOOLS.put(tool.name(), tool));
          ctx.completeNow();
        })));
  }

  @Test
  void knowledgeSearchAsksTheRetrieverAndSummarizesItsTopHits(VertxTestContext ctx) {
    Tool search = TOOLS.get("knowledge_search");
    search.execute(new JsonObject().put("query", "chargebacks answered by the seller").put("topK", 2))
        .onComplete(ctx.succeeding(result -> ctx.verify(() -> {
          JsonArray results = result.getJsonArray("results");
          assertEquals(2, results.size(), result.encode());
          assertEquals(1, results.getJsonObject(0).getInteger("chunkIndex"), result.encode());
          JsonObject summary = search.summarize(result);
          assertEquals(2, summary.getInteger("hits"));
          assertEquals(new JsonObject().put("documentId", "payments-policy").put("chunkIndex", 1)
              .put("title", "Payments policy"), summary.getJsonArray("top").getJsonObject(0));
          ctx.completeNow();
        })));
  }

  @Test
  void getDocumentReturnsTheWholeDocumentWithItsChunks(VertxTestContext ctx) {
    Tool get = TOOLS.get("get_document");
    get.execute(new JsonObject().put("id", "payments-policy")).onComplete(ctx.succeeding(doc -> ctx.verify(() -> {
      assertEquals(String.join(" ", SENTENCES), doc.getString("text"));
      assertEquals(new JsonObject().put("id", "payments-policy").put("title", "Payments policy").put("chunks", 3),
          get.summarize(doc));
      ctx.completeNow();
    })));
  }

  @Test
  void chunkNeighboursTakeOneChunkEachSideByDefaultAndNameTheirDocument(VertxTestContext ctx) {
    Tool neighbours = TOOLS.get("get_chunk_neighbours");
    var checkpoint = ctx.checkpoint(2);
    neighbours.execute(new JsonObject().put("documentId", "payments-policy").put("index", 1))
        .onComplete(ctx.succeeding(result -> ctx.verify(() -> {
          assertEquals("payments-policy", result.getString("documentId"));
          assertEquals(List.of(0, 1, 2), indexes(result));
          assertEquals(new JsonObject().put("chunks", 3), neighbours.summarize(result));
          checkpoint.flag();
        })));
    neighbours.execute(new JsonObject().put("documentId", "payments-policy").put("index", 2).put("before", 0))
        .onComplete(ctx.succeeding(result -> ctx.verify(() -> {
          assertEquals(List.of(2), indexes(result));
          checkpoint.flag();
        })));
  }

  @Test
  void aMissingDocumentFailsWithItsStatus(VertxTestContext ctx) {
    TOOLS.get("get_document").execute(new JsonObject().put("id", "no-such-document"))
        .onComplete(ctx.failing(err -> ctx.verify(() -> {
          assertEquals(404, assertInstanceOf(ReplyException.class, err).failureCode());
          assertTrue(err.getMessage().contains("no-such-document"), err.getMessage());
          ctx.completeNow();
        })));
  }

  private static List<Integer> indexes(JsonObject result) {
    return result.getJsonArray("chunks").stream().map(c -> ((JsonObject) c).getInteger("index")).toList();
  }
}
