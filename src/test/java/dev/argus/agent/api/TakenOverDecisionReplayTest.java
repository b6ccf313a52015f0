package dev.argus.agent.api;

import dev.argus.agent.SseClient;
import dev.argus.bus.Addresses;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunInput;
import dev.argus.runs.RunStatus;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A decision run whose node died is ended by the node that took its lease over with an event of id 1,000,000 (the
 * dead node streamed events 1..n but never stored them): its stored log is {@code run} (1) then that end. A client
 * that read part of the live stream reconnects with {@code Last-Event-ID} and must receive the end, not a stream that
 * closes without it (the relay delivers a stored terminal event after a gap in ids). Whole service, real HTTP, real
 * SSE client, the run recorded through the coordinator's own {@code argus.agent.run.record}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TakenOverDecisionReplayTest {

  private Vertx vertx;
  private TestApp app;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())));
    long now = System.currentTimeMillis();
    Run failed = Run.start("dec-run-1", "seller_onboarding", new RunInput("decision seller_onboarding S-1", null,
        null, null), now).withProgress(RunStatus.FAILED, null, 0, 0, "the node deciding it died", now);
    JsonArray events = new JsonArray()
        .add(new RunEvent("dec-run-1", 1, RunEvent.RUN, new JsonObject().put("runId", "dec-run-1"), now).toJson())
        .add(new RunEvent("dec-run-1", 1_000_000, RunEvent.ERROR, new JsonObject().put("runId", "dec-run-1")
            .put("error", "the node deciding it died").put("code", "run_failed"), now).toJson());
    await(vertx.eventBus().request(Addresses.AGENT_RUN_RECORD, new JsonObject().put("run", failed.toJson())
        .put("events", events)));
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  @Test
  void aClientThatReadPartOfTheDeadNodesStreamReceivesTheEnd() throws Exception {
    // it had read events 1..7 live from the dead node
    SseClient.Result r = await(new SseClient(vertx, app.port()).get("/api/runs/dec-run-1/events", "7", null));
    assertEquals(200, r.status());
    assertEquals(List.of("error"), r.types());
    assertEquals(1_000_000, r.events().get(0).id());
    assertEquals("the node deciding it died", r.events().get(0).data().getString("error"));
  }

  @Test
  void aReplayFromTheStartGetsTheStoredLogThenTheEnd() throws Exception {
    SseClient.Result r = await(new SseClient(vertx, app.port()).get("/api/runs/dec-run-1/events", null, null));
    assertEquals(List.of("run", "error"), r.types());
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
