package dev.argus.webui;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs one browser test script with Node's test runner in {@code src/test/browser} (playwright-core driving Debian's
 * chromium) and fails the calling test when the script fails, runs no test or does not end in time. Shared by the
 * page tests ({@link BrowserPagesTest}) and the console tests ({@link ConsolePagesTest}).
 */
final class NodeBrowserRun {

  static final Path DIR = Path.of("src/test/browser");
  static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("ARGUS_CHROMIUM", "/usr/bin/chromium"));

  /** The summary line of Node's test runner: "pass 6" (spec reporter) or "# pass 6" (TAP). */
  private static final Pattern PASSED = Pattern.compile("(?m)^\\S* ?pass (\\d+)$");

  private NodeBrowserRun() {
  }

  /** Runs {@code file} (under {@link #DIR}) with {@code env} added to the environment. */
  static void run(Path file, Map<String, String> env, long timeoutSeconds) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("node", "--test", "--test-reporter=spec",
        "--test-timeout=" + (timeoutSeconds - 10) * 1000, DIR.relativize(file).toString())
        .directory(DIR.toFile())
        .redirectErrorStream(true);
    pb.environment().put("ARGUS_CHROMIUM", CHROMIUM.toString());
    pb.environment().putAll(env);
    Process process = pb.start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> copy(process.getInputStream(), output), "browser-test-output");
    reader.start();
    boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!ended) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    reader.join(10_000);
    String out = output.toString(StandardCharsets.UTF_8);
    System.out.println("---- " + file.getFileName() + "\n" + out);
    if (!ended) {
      fail(file.getFileName() + " did not end within " + timeoutSeconds + " s:\n" + out);
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
