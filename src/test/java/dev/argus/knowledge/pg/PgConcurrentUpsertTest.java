package dev.argus.knowledge.pg;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.UpsertResult;
import dev.argus.knowledge.UpsertResult.Outcome;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two requests ingesting the same document at the same time end with exactly one consistent copy. */
class PgConcurrentUpsertTest {

  private static PgTestStore fixture;
  private static Database db;
  private static PgKnowledgeStore store;

  @BeforeAll
  static void open() {
    fixture = PgTestStore.open("m", 3);
    db = fixture.db;
    store = fixture.store;
  }

  @AfterAll
  static void close() {
    fixture.close();
  }

  private static Future<UpsertResult> write(String id, String version, int chunks) {
    List<Chunk> list = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      list.add(new Chunk(id, i, chunks, version + " part " + i, new float[] {1, 0, 0}));
    }
    return store.upsert(new Document(id, "default", "T", null, version, new JsonObject(), "hash-" + version, 0, null, null), list);
  }

  @Test
  void sameContentTwiceAtOnceIsCreatedOnceAndUnchangedOnce() {
    for (int round = 0; round < 20; round++) {
      String id = "same-" + round;
      var a = write(id, "v" + round, 4);
      var b = write(id, "v" + round, 4);
      await(Future.all(a, b));
      assertEquals(Set.of(Outcome.CREATED, Outcome.UNCHANGED), Set.of(a.result().outcome(), b.result().outcome()));
      assertOneConsistentCopy(id);
    }
  }

  @Test
  void differentContentAtOnceEndsWithOneWholeVersion() {
    for (int round = 0; round < 20; round++) {
      String id = "diff-" + round;
      var a = write(id, "A" + round, 3);
      var b = write(id, "B" + round, 5);
      await(Future.all(a, b));
      assertEquals(Set.of(Outcome.CREATED, Outcome.REPLACED), Set.of(a.result().outcome(), b.result().outcome()));
      assertOneConsistentCopy(id);
    }
  }

  private static void assertOneConsistentCopy(String id) {
    Row doc = await(db.pool().preparedQuery("SELECT count(*) OVER (), text, content_hash, chunk_count FROM documents WHERE id = $1")
        .execute(Tuple.of(id))).iterator().next();
    assertEquals(1L, doc.getLong(0));
    String version = doc.getString(1);
    assertEquals("hash-" + version, doc.getString(2));
    var chunks = await(store.chunks(id, 0, 100));
    assertEquals(doc.getInteger(3), chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      assertEquals(version + " part " + i, chunks.get(i).text(), "every chunk belongs to the stored version");
      assertEquals(chunks.size(), chunks.get(i).total());
    }
    assertTrue(chunks.size() > 0);
  }
}
