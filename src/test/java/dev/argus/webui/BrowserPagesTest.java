package dev.argus.webui;

import dev.argus.testing.SampleKnowledge;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The web pages in a real browser: the whole service with the sample knowledge base loaded (real SQLite file,
 * real embedder, real HTTP on a free port), and each {@code src/test/browser/tests/*.test.js} run by Node's test
 * runner, which drives Debian's chromium through playwright-core. A script fails on any failed assertion and on any
 * browser console error, uncaught page error, unexpected dialog or failed request; each file is one test here and
 * is stopped (with its browser) after {@link #FILE_TIMEOUT_SECONDS}. {@code scripts/setup-browser} installs what it
 * needs; without it the test fails and says so. {@code -Dargus.screens=<dir>} saves screenshots of the pages.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserPagesTest {

  static final Path DIR = NodeBrowserRun.DIR;
  static final Path CHROMIUM = NodeBrowserRun.CHROMIUM;
  static final long FILE_TIMEOUT_SECONDS = 300;

  private Vertx vertx;
  private TestApp app;

  @BeforeAll
  void start() {
    assertTrue(Files.isExecutable(CHROMIUM), CHROMIUM + " is missing: run scripts/setup-browser");
    assertTrue(Files.isDirectory(DIR.resolve("node_modules/playwright-core")),
        "playwright-core is not installed in " + DIR + ": run scripts/setup-browser");
    vertx = Vertx.vertx();
    app = await(SampleKnowledge.start(vertx, SampleKnowledge.config(TestApp.tempDataDir())));
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @TestFactory
  Stream<DynamicTest> pages() throws IOException {
    List<Path> files;
    try (Stream<Path> listed = Files.list(DIR.resolve("tests"))) {
      files = listed.filter(p -> p.getFileName().toString().endsWith(".test.js")).sorted().toList();
    }
    assertTrue(files.size() >= 4, "browser test scripts found: " + files);
    return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> run(file)));
  }

  private void run(Path file) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("ARGUS_URL", "http://127.0.0.1:" + app.port());
    String screens = System.getProperty("argus.screens");
    if (screens != null && !screens.isBlank()) {
      env.put("ARGUS_SCREENS", Path.of(screens).toAbsolutePath().toString());
    }
    NodeBrowserRun.run(file, env, FILE_TIMEOUT_SECONDS);
  }
}
