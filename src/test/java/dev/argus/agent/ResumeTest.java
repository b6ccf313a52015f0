package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.runs.Run;
import dev.argus.runs.RunInput;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run interrupted by stopping Vert.x mid-run continues from its last checkpoint when the service starts again. */
class ResumeTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  void runStoppedMidActResumesFromItsCheckpoint() throws Exception {
    Path dir = TestApp.tempDataDir();
    ArgusConfig conf = AgentHarness.config(dir).with("agent", "toolTimeoutMs", 120_000).with("agent", "toolRetries", 0);

    // 1. first process: retrieval hangs, so the run sits in Act when Vert.x stops
    Vertx first = Vertx.vertx();
    AgentHarness a = await(AgentHarness.start(first, conf, Corpus.standard()));
    BusFault.on(first, Addresses.RETRIEVE_SEARCH).delayMs = 100_000;
    SseClient.Result seen = await(new SseClient(first, a.port()).post("/api/chat",
        new JsonObject().put("question", "How long do refunds take to be processed?"), e -> e.type().equals("tool_call")));
    String runId = seen.events().get(0).data().getString("runId");
    long lastSeen = seen.events().get(seen.events().size() - 1).id();
    Run before = await(a.runs.find(runId)).orElseThrow();
    for (int i = 0; i < 50 && !"act".equals(before.nextPhase()); i++) { // checkpoints are written behind the run
      Thread.sleep(20);
      before = await(a.runs.find(runId)).orElseThrow();
    }
    assertEquals("running", before.status().wire());
    assertEquals("act", before.nextPhase());
    await(first.close());

    // a run whose profile no longer exists cannot resume: it is marked failed with the reason
    Vertx second = Vertx.vertx();
    try {
      var db = await(dev.argus.store.Database.sqlite(second, conf.data().sqliteFile()));
      var store = dev.argus.runs.RunStores.create(db);
      await(store.save(Run.start("orphan-run", "retired-profile", new RunInput("q", "default", null, null),
          System.currentTimeMillis())));
      await(db.close());

      // 2. second process on the same data folder (documents already stored): retrieval answers now
      AgentHarness b = await(AgentHarness.start(second, conf, java.util.List.of()));
      SseClient.Result rest = await(new SseClient(second, b.port()).get("/api/runs/" + runId + "/events",
          String.valueOf(lastSeen), null));
      assertEquals("final", rest.types().get(rest.types().size() - 1), rest.types().toString());
      assertTrue(rest.events().get(0).id() > lastSeen);
      assertTrue(rest.all("agent_log").stream().anyMatch(e -> e.data().getBoolean("resumed", false)));
      assertTrue(rest.last("final").data().getString("answer").contains("[cite:refund-policy:1]"));
      // Think and Plan were not run again: only act, observe, reflect after the restart
      assertEquals(java.util.List.of("act", "observe", "reflect"), rest.all("phase").stream()
          .filter(e -> "start".equals(e.data().getString("status"))).map(e -> e.data().getString("name")).toList());

      WebClient web = WebClient.create(second);
      JsonObject run = await(web.get(b.port(), "127.0.0.1", "/api/runs/" + runId).send()).bodyAsJsonObject();
      assertEquals("completed", run.getString("status"));
      // the whole log is still numbered 1..n without gaps or repeats
      SseClient.Result whole = await(new SseClient(second, b.port()).get("/api/runs/" + runId + "/events", "0", null));
      for (int i = 0; i < whole.events().size(); i++) {
        assertEquals(i + 1, whole.events().get(i).id());
      }
      JsonObject orphan = await(web.get(b.port(), "127.0.0.1", "/api/runs/orphan-run").send()).bodyAsJsonObject();
      assertEquals("failed", orphan.getString("status"));
      assertTrue(orphan.getString("error").contains("cannot resume"), orphan.getString("error"));
      assertFalse(orphan.getString("error").isBlank());
    } finally {
      await(second.close());
    }
  }
}
