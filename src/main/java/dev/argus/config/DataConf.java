package dev.argus.config;

import java.nio.file.Path;

/** Section {@code data}: where the embedded store keeps its files ({@code ARGUS_DATA_DIR}). */
public record DataConf(Path dir) {

  public static DataConf from(Settings s) {
    return new DataConf(Path.of(s.nonBlank("dir", "data")));
  }

  public Path sqliteFile() {
    return dir.resolve("argus.db");
  }
}
