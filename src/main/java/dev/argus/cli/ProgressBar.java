package dev.argus.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * A one-line terminal progress bar (documents done of total, chunks, documents per second), redrawn in place.
 * While it is shown, log records are printed above it ({@link #captureLogs}) instead of through it, so the two never
 * interleave. Thread-safe: the pipeline updates it from an event loop, loggers write from any thread.
 */
final class ProgressBar {

  private static final int WIDTH = 30;
  private final PrintStream err;
  private final int total;
  private final boolean quiet;
  private String current = "";

  ProgressBar(PrintStream err, int total, boolean quiet) {
    this.err = err;
    this.total = total;
    this.quiet = quiet;
  }

  synchronized void update(int done, long chunks, long elapsedNanos) {
    if (!quiet) {
      current = line(done, total, chunks, elapsedNanos);
      err.print("\r" + current);
      err.flush();
    }
  }

  synchronized void finish() {
    if (!quiet && !current.isEmpty()) {
      err.println();
      current = "";
    }
  }

  /** Prints one line above the bar: clears the bar's line, prints, draws the bar again. */
  synchronized void print(String text) {
    if (!current.isEmpty()) {
      err.print("\r" + " ".repeat(current.length()) + "\r");
    }
    err.print(text.endsWith("\n") ? text : text + "\n");
    if (!current.isEmpty()) {
      err.print(current);
    }
    err.flush();
  }

  /**
   * Until closed, the root logger's handlers are replaced by one that prints through {@link #print}, at the level
   * the first of them had.
   */
  LogCapture captureLogs() {
    return new LogCapture(this);
  }

  static final class LogCapture implements AutoCloseable {
    private final Logger root = Logger.getLogger("");
    private final Handler[] saved;
    private final Handler handler;

    LogCapture(ProgressBar bar) {
      saved = root.getHandlers();
      SimpleFormatter formatter = new SimpleFormatter();
      handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
          if (isLoggable(record)) {
            bar.print(formatter.format(record));
          }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
      };
      if (saved.length > 0) {
        handler.setLevel(saved[0].getLevel());
      }
      for (Handler h : saved) {
        root.removeHandler(h);
      }
      root.addHandler(handler);
    }

    @Override
    public void close() {
      root.removeHandler(handler);
      for (Handler h : saved) {
        root.addHandler(h);
      }
    }
  }

  static String line(int done, int total, long chunks, long elapsedNanos) {
    int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
    double seconds = elapsedNanos / 1e9;
    return String.format(Locale.ROOT, "[%s%s] %d/%d docs  %d chunks  %.1f docs/s", "#".repeat(filled),
        ".".repeat(WIDTH - filled), done, total, chunks, seconds > 0 ? done / seconds : 0.0);
  }
}
