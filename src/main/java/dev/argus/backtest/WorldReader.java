package dev.argus.backtest;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads a labelled world (JSON Lines, the records wire format) a chunk at a time: each record's {@code label} is taken
 * out and noted in the {@link WorldIndex}; the chunk's text, without labels, is what goes to the records store. A line
 * that is not a JSON object is passed on unchanged (the records loader refuses it and says why). Reading blocks: call
 * {@link #next} on a worker thread, from one thread at a time.
 */
final class WorldReader implements AutoCloseable {

  /** Up to {@code maxLines} lines of the world without labels; {@code lines == 0} at the end. */
  record Chunk(String text, int lines) {
  }

  private final BufferedReader reader;
  private final WorldIndex index = new WorldIndex();

  WorldReader(BufferedReader reader) {
    this.reader = reader;
  }

  WorldIndex index() {
    return index;
  }

  Chunk next(int maxLines, int maxChars) {
    StringBuilder text = new StringBuilder();
    int n = 0;
    try {
      String line;
      while (n < maxLines && text.length() < maxChars && (line = reader.readLine()) != null) {
        index.lines++;
        if (line.isBlank()) {
          continue;
        }
        n++;
        text.append(strip(line)).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the world at line " + (index.lines + 1) + ": " + e.getMessage(), e);
    }
    return new Chunk(text.toString(), n);
  }

  private String strip(String line) {
    JsonObject record;
    try {
      record = new JsonObject(line);
    } catch (DecodeException | ClassCastException e) {
      index.unreadable++;
      return line;
    }
    index.note(record);
    if (record.containsKey("label")) {
      record.remove("label");
      return record.encode();
    }
    return line;
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
