package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Argus process ({@code Main serve} in its own JVM) is killed with SIGKILL while the model's answer streams;
 * a second process on the same data folder resumes the run. The client that reconnects with {@code Last-Event-ID}
 * gets exactly the events after that id: every id it already held still names the same event, and the answer text it
 * assembles from {@code token} events is the final answer, once.
 */
class KillMidStreamTest {

  private static final String SLOW_ANSWER = "Refunds are processed within 14 days after the returned item arrives at "
      + "the warehouse [cite:refund-policy:1] and shipping costs are not refunded [cite:refund-policy:1] while "
      + "digital goods cannot be refunded once they were downloaded [cite:refund-policy:2] according to the policy.";
  private static final String FAST_ANSWER = "Refunds are processed within 14 days after the returned item arrives at "
      + "the warehouse. [cite:refund-policy:1]";

  @Test
  void aRunKilledMidTokenStreamResumesWithStableEventIds() throws Exception {
    Vertx vertx = Vertx.vertx();
    Process first = null;
    Process second = null;
    try {
      FakeOpenAiServer llm = await(FakeOpenAiServer.start(vertx));
      boolean[] slow = {true};
      llm.respondWith(req -> {
        String system = req.body().getJsonArray("messages").getJsonObject(0).getString("content");
        if (system.startsWith("You answer")) {
          return slow[0] ? FakeReply.text(SLOW_ANSWER).tokenDelay(150) : FakeReply.text(FAST_ANSWER);
        }
        return LlmPathsTest.phases(FAST_ANSWER).apply(req);
      });
      Path dir = TestApp.tempDataDir();
      int port = freePort();
      ArgusConfig conf = AgentHarness.withLlm(AgentHarness.config(dir), llm.conf())
          .with("http", "port", port).with("agent", "cacheTtlMs", 0);
      Path confFile = dir.resolve("argus-test.json");
      Files.writeString(confFile, conf.raw().encodePrettily());

      java.util.concurrent.atomic.AtomicInteger streamed = new java.util.concurrent.atomic.AtomicInteger();
      first = serve(confFile, dir.resolve("first.log"));
      awaitUp(vertx, port, first);
      await(AgentHarness.seed(vertx, port, Corpus.standard()));
      SseClient.Result seen = await(new SseClient(vertx, port).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take to be processed?"),
          e -> ("draft".equals(e.type()) || "token".equals(e.type())) && streamed.incrementAndGet() >= 5));
      assertTrue(seen.events().size() > 5, seen.types().toString());
      String runId = seen.events().get(0).data().getString("runId");
      long lastSeen = seen.events().get(seen.events().size() - 1).id();
      first.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL: no shutdown hook, no final flush

      slow[0] = false;
      second = serve(confFile, dir.resolve("second.log"));
      awaitUp(vertx, port, second);
      SseClient.Result rest = await(new SseClient(vertx, port).get("/api/runs/" + runId + "/events",
          String.valueOf(lastSeen), null));
      assertEquals("final", rest.types().get(rest.types().size() - 1), rest.types().toString());
      // exactly the events after the client's last id, in order, none skipped
      for (int i = 0; i < rest.events().size(); i++) {
        assertEquals(lastSeen + 1 + i, rest.events().get(i).id(), rest.types().toString());
      }
      // every id the client held names the same event as before the crash
      SseClient.Result whole = await(new SseClient(vertx, port).get("/api/runs/" + runId + "/events", "0", null));
      Map<Long, SseClient.Event> stored = new TreeMap<>();
      whole.events().forEach(e -> stored.put(e.id(), e));
      for (SseClient.Event e : seen.events()) {
        SseClient.Event now = stored.get(e.id());
        assertTrue(now != null && now.type().equals(e.type()) && now.data().equals(e.data()),
            "id " + e.id() + " was " + e.type() + " " + e.data().encode() + ", now " + (now == null ? "missing"
                : now.type() + " " + now.data().encode()));
      }
      // the answer assembled from token events across both streams is the final answer, once
      StringBuilder answer = new StringBuilder();
      List<SseClient.Event> all = new ArrayList<>(seen.events());
      all.addAll(rest.events());
      all.stream().filter(e -> "token".equals(e.type())).forEach(e -> answer.append(e.data().getString("text")));
      assertEquals(rest.last("final").data().getString("answer"), answer.toString());
    } finally {
      for (Process p : new Process[]{first, second}) {
        if (p != null) {
          p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
      await(vertx.close());
    }
  }

  /** {@code java -cp <this test's class path> dev.argus.cli.Main serve --config <file>} in the project folder. */
  private static Process serve(Path confFile, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx1g", "--add-modules", "jdk.incubator.vector",
        "-cp", System.getProperty("java.class.path"), "dev.argus.cli.Main", "serve", "--config", confFile.toString());
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    return pb.start();
  }

  private static void awaitUp(Vertx vertx, int port, Process p) throws Exception {
    WebClient web = WebClient.create(vertx);
    for (int i = 0; i < 600; i++) {
      if (!p.isAlive()) {
        throw new AssertionError("the Argus process exited with " + p.exitValue());
      }
      try {
        if (await(web.get(port, "127.0.0.1", "/api/health").send(), 5).statusCode() == 200) {
          return;
        }
      } catch (RuntimeException | AssertionError notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the Argus process did not start within 120 s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
