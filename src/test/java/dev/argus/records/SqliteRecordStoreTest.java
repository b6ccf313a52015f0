package dev.argus.records;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract on a real SQLite file; and the raw identifiers are in neither the file nor its write-ahead log. */
class SqliteRecordStoreTest extends RecordStoreContract {

  private Path dir;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    try {
      dir = Files.createTempDirectory("argus-records-");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return Database.sqlite(vertx, dir.resolve("argus.db"));
  }

  @Override
  protected String allTableText() {
    return tableText("SELECT * FROM records") + tableText("SELECT * FROM record_labels")
        + tableText("SELECT * FROM record_subjects") + tableText("SELECT record_id, name FROM watchlist_names");
  }

  @Test
  void rawIdentifiersAreNotInTheDatabaseFiles() throws Exception {
    await(db.pool().query("PRAGMA wal_checkpoint(PASSIVE)").execute());
    StringBuilder bytes = new StringBuilder();
    for (String name : List.of("argus.db", "argus.db-wal")) {
      Path f = dir.resolve(name);
      if (Files.exists(f)) {
        bytes.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
      }
    }
    String all = bytes.toString();
    assertTrue(all.contains(RecordFixtures.FP.taxId(RecordFixtures.TAX_ID)), "the file holds the records");
    for (String raw : List.of(RecordFixtures.TAX_ID, "99887766", "DE89370400440532013000", "0532013000",
        "GB00TEST1111222233", "1111222233")) {
      assertFalse(all.contains(raw), "raw identifier in the database file: " + raw);
    }
  }
}
