package dev.argus.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Log lines print above the progress bar, never through it, and the bar is drawn again below them. */
class ProgressBarTest {

  @Test
  void aLogLineClearsTheBarPrintsAndRedrawsIt() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), 10, false);
    bar.update(5, 7, 2_000_000_000L);
    String line = ProgressBar.line(5, 10, 7, 2_000_000_000L);
    bar.print("WARNING: something happened");
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals("\r" + line + "\r" + " ".repeat(line.length()) + "\rWARNING: something happened\n" + line, out);
  }

  @Test
  void loggersWriteThroughTheBarWhileItIsShown() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), 2, false);
    bar.update(1, 1, 1_000_000_000L);
    try (ProgressBar.LogCapture ignored = bar.captureLogs()) {
      Logger.getLogger("dev.argus.test").warning("a log line during ingestion");
    }
    String out = bytes.toString(StandardCharsets.UTF_8);
    int log = out.indexOf("a log line during ingestion");
    assertTrue(log > 0, out);
    String before = out.substring(0, log);
    assertTrue(before.contains("\r" + " ".repeat(ProgressBar.line(1, 2, 1, 1_000_000_000L).length()) + "\r"),
        "the bar's line is cleared first: " + out);
    assertTrue(out.endsWith(ProgressBar.line(1, 2, 1, 1_000_000_000L)), "and drawn again after: " + out);
  }
}
