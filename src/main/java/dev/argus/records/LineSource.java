package dev.argus.records;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a JSON Lines input, read a slice at a time with their line numbers. Reading may block (files): call
 * {@link #next} on a worker thread, never on an event loop, and from one thread at a time.
 */
public final class LineSource implements AutoCloseable {

  /** Consecutive lines starting at line {@code first} (1-based); empty at the end of the input. */
  public record Slice(long first, List<String> lines) {
  }

  private final BufferedReader reader;
  private long lineNumber;

  public LineSource(BufferedReader reader) {
    this.reader = reader;
  }

  public static LineSource of(String text) {
    return new LineSource(new BufferedReader(new StringReader(text)));
  }

  /** Up to {@code max} next lines. */
  public Slice next(int max) {
    long first = lineNumber + 1;
    List<String> lines = new ArrayList<>(Math.min(max, 4096));
    try {
      String line;
      while (lines.size() < max && (line = reader.readLine()) != null) {
        lines.add(line);
        lineNumber++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read line " + (lineNumber + 1) + ": " + e.getMessage(), e);
    }
    return new Slice(first, lines);
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException ignored) {
      // nothing left to release
    }
  }
}
