package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A phase that does not answer within its timeout ends the run with an {@code error} event, never a hang. */
class PhaseTimeoutTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  void slowPhaseEndsTheRunWithError() throws Exception {
    ArgusConfig conf = AgentHarness.config().with("agent", "phaseTimeoutMs", 500)
        .with("agent", "toolTimeoutMs", 30_000);
    Vertx vertx = Vertx.vertx();
    try {
      AgentHarness app = await(AgentHarness.start(vertx, conf, Corpus.standard()));
      BusFault.on(vertx, Addresses.RETRIEVE_SEARCH).delayMs = 5_000; // the real retriever answers, late
      long start = System.nanoTime();
      SseClient.Result r = await(new SseClient(vertx, app.port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take?"), null));
      long ms = (System.nanoTime() - start) / 1_000_000;
      assertEquals("error", r.types().get(r.types().size() - 1), r.types().toString());
      assertTrue(r.last("error").data().getString("error").contains("act timed out after 500 ms"));
      assertTrue(ms < 4_000, "took " + ms);
      String runId = r.events().get(0).data().getString("runId");
      JsonObject run = await(WebClient.create(vertx).get(app.port(), "127.0.0.1", "/api/runs/" + runId).send())
          .bodyAsJsonObject();
      assertEquals("failed", run.getString("status"));
      assertTrue(run.getString("error").contains("timed out"));
    } finally {
      await(vertx.close());
    }
  }
}
