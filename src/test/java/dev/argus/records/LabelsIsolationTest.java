package dev.argus.records;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Ground-truth labels are for measurement only: the labels table is named in the migrations and in the one class that
 * writes it ({@link SqlRecordStore}), and nowhere else in the main code, so no deciding or scoring path reads it.
 */
class LabelsIsolationTest {

  @Test
  void onlyTheStoreWritesTheLabelsTable() throws Exception {
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      List<String> naming = files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
        try {
          return Files.readString(f).contains("record_labels");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).map(f -> f.getFileName().toString()).sorted().toList();
      assertEquals(List.of("SqlRecordStore.java"), naming);
    }
  }
}
