package dev.argus.bridge;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of the hostile-input proof (the long one is scripts/fuzz): a real Argus (HTTP, the SockJS bridge
 * and the TCP bridge on) takes fuzzed requests from the same clients scripts/fuzz uses, over real sockets —
 * scripts/fuzz-requests.py across every route and scripts/fuzz-bridge.py across every bridge address and transport —
 * and must answer none of them with a 5xx, never stop answering, put every error in the {@code {"error", "code"}}
 * shape and leak no stack trace. Bounded: a few hundred of each, well under a minute on a quiet machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputProofTest {

  private static final int HTTP_REQUESTS = 250;
  private static final int BRIDGE_FRAMES = 250;

  private Vertx vertx;
  private TestApp app;
  private int tcpPort;

  @BeforeAll
  void start() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      tcpPort = s.getLocalPort();
    }
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("bridge", "tcpEnabled", true)
        .with("bridge", "tcpPort", tcpPort).with("bridge", "replyTimeoutMs", 10_000)
        .with("http", "bodyTimeoutMs", 3_000).with("http", "headerTimeoutMs", 3_000)
        .with("agent", "cacheTtlMs", 0);
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, conf));
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  @Test
  void fuzzedRequestsAcrossEveryRouteGetNo5xxAndTheErrorShape() throws Exception {
    JsonObject r = run("scripts/fuzz-requests.py", "--port", String.valueOf(app.port()), "--requests",
        String.valueOf(HTTP_REQUESTS), "--threads", "4", "--seed", "5", "--hang-seconds", "20");
    assertEquals(HTTP_REQUESTS, r.getInteger("requests"), r.encodePrettily());
    assertEquals(0, r.getInteger("5xx"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("hangs"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("notJsonErrorShape"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("stackTraces"), r.getJsonObject("samples").encodePrettily());
  }

  @Test
  void fuzzedFramesAcrossEveryBridgeAddressGetNo5xxAndTheErrorShape() throws Exception {
    JsonObject r = run("scripts/fuzz-bridge.py", "--port", String.valueOf(app.port()), "--tcp-port",
        String.valueOf(tcpPort), "--frames", String.valueOf(BRIDGE_FRAMES), "--threads", "4", "--seed", "5",
        "--reply-seconds", "15");
    assertEquals(BRIDGE_FRAMES, r.getInteger("frames"), r.encodePrettily());
    // every transport was used: frames are spread over tcp, ws and the SockJS HTTP transports
    r.getJsonObject("byTransport").forEach(e -> assertTrue(((Number) e.getValue()).intValue() > 0, e.getKey()));
    assertEquals(0, r.getInteger("5xx"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("hangs"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("connectErrors"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("notJsonErrorShape"), r.getJsonObject("samples").encodePrettily());
    assertEquals(0, r.getInteger("stackTraces"), r.getJsonObject("samples").encodePrettily());
    // the server still serves after all of it
    JsonObject again = run("scripts/fuzz-requests.py", "--port", String.valueOf(app.port()), "--requests", "5",
        "--threads", "1", "--seed", "1", "--hang-seconds", "20");
    assertEquals(0, again.getInteger("hangs") + again.getInteger("5xx") + again.getInteger("connectErrors"));
  }

  /** Runs one of the fuzz clients (python3, standard library only) and returns the JSON it prints. */
  private static JsonObject run(String script, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("python3", script));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("argus-fuzz-", ".json");
    Path err = Files.createTempFile("argus-fuzz-", ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(150, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(script + " did not finish in 150 s");
    }
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), script + " failed: " + stderr);
    return new JsonObject(Files.readString(out, StandardCharsets.UTF_8));
  }
}
