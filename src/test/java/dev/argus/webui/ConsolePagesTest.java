package dev.argus.webui;

import dev.argus.access.ProtectedApp;
import dev.argus.metrics.Metrics;
import dev.argus.records.world.WorldGenerator;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst console in a real browser against the real service in protected mode ({@code auth.required}: the admin
 * key the first start prints is the one the test signs in with), with a generated world of 60 sellers loaded through
 * {@code POST /api/records}: {@code src/test/browser/console/console.test.js} signs in, decides, reviews, sees the
 * graph and the charts, follows every page at laptop and tablet widths with no console error, and checks that
 * payloads in data render inert. Screenshots of every page go to {@code target/console-screens} (or
 * {@code -Dargus.screens}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsolePagesTest {

  static final long TIMEOUT_SECONDS = 420;
  static final int SELLERS = 60;

  private Vertx vertx;
  private ProtectedApp.Started started;

  @BeforeAll
  void start() {
    assertTrue(Files.isExecutable(NodeBrowserRun.CHROMIUM), NodeBrowserRun.CHROMIUM + " is missing: run scripts/setup-browser");
    assertTrue(Files.isDirectory(NodeBrowserRun.DIR.resolve("node_modules/playwright-core")),
        "playwright-core is not installed in " + NodeBrowserRun.DIR + ": run scripts/setup-browser");
    vertx = Metrics.vertxWithMetrics(new VertxOptions()); // as `argus serve` starts it (/metrics for Operations)
    started = ProtectedApp.start(vertx, TestApp.config(TestApp.tempDataDir()));
    StringWriter world = new StringWriter();
    WorldGenerator.generate(SELLERS, 7, world);
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(started.app().port()));
    HttpResponse<Buffer> loaded = await(client.post("/api/records?wait=true")
        .putHeader("Authorization", "Bearer " + started.adminKey())
        .putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(world.toString())), 300);
    assertEquals(201, loaded.statusCode(), loaded.bodyAsString());
    JsonObject job = loaded.bodyAsJsonObject();
    assertEquals(0, job.getInteger("failed"), job.encode());
    client.close();
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void console() throws Exception {
    String screens = System.getProperty("argus.screens");
    Path dir = screens == null || screens.isBlank() ? Path.of("target/console-screens") : Path.of(screens);
    NodeBrowserRun.run(NodeBrowserRun.DIR.resolve("console/console.test.js"), Map.of(
        "ARGUS_URL", "http://127.0.0.1:" + started.app().port(),
        "ARGUS_KEY", started.adminKey(),
        "ARGUS_SCREENS", dir.toAbsolutePath().toString()), TIMEOUT_SECONDS);
  }
}
