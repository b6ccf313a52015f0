package dev.argus.webui;

import dev.argus.testing.SampleKnowledge;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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

  static final Path DIR = Path.of("src/test/browser");
  static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("ARGUS_CHROMIUM", "/usr/bin/chromium"));
  static final long FILE_TIMEOUT_SECONDS = 300;

  /** The summary line of Node's test runner: "pass 6" (spec reporter) or "# pass 6" (TAP). */
  private static final Pattern PASSED = Pattern.compile("(?m)^\\S* ?pass (\\d+)$");

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
    ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=spec",
        "--test-timeout=" + (FILE_TIMEOUT_SECONDS - 10) * 1000, DIR.relativize(file).toString())
        .directory(DIR.toFile())
        .redirectErrorStream(true);
    pb.environment().put("ARGUS_URL", "http://127.0.0.1:" + app.port());
    pb.environment().put("ARGUS_CHROMIUM", CHROMIUM.toString());
    String screens = System.getProperty("argus.screens");
    if (screens != null && !screens.isBlank()) {
      pb.environment().put("ARGUS_SCREENS", Path.of(screens).toAbsolutePath().toString());
    }
    Process process = pb.start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> copy(process.getInputStream(), output), "browser-test-output");
    reader.start();
    boolean ended = process.waitFor(FILE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    reader.join(10_000);
    String out = output.toString(StandardCharsets.UTF_8);
    System.out.println("---- " + file.getFileName() + "\n" + out);
    if (!ended) {
      fail(file.getFileName() + " did not end within " + FILE_TIMEOUT_SECONDS + " s:\n" + out);
    }
    assertEquals(0, process.exitValue(), file.getFileName() + " failed:\n" + out);
    Matcher passed = PASSED.matcher(out);
    assertTrue(passed.find() && Integer.parseInt(passed.group(1)) > 0, file.getFileName() + " ran no test:\n" + out);
  }

  private static void copy(InputStream in, ByteArrayOutputStream out) {
    try (in) {
      in.transferTo(out);
    } catch (IOException e) {
      // the process was stopped
    }
  }
}
