package dev.argus.knowledge.pg;

import dev.argus.config.PgConf;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.UpsertResult;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL restarted while documents are ingested (a private cluster the test starts and restarts): the
 * documents in flight fail with a clear error and leave nothing behind, the finished ones are whole, and later
 * requests succeed on the same store and pool without restarting Argus.
 */
class PgRestartDuringIngestTest {

  private static final int DOCS = 40;
  private static final int CHUNKS = 200;

  @Test
  void inFlightDocumentsFailCleanlyAndLaterRequestsSucceed() throws Exception {
    Vertx vertx = Vertx.vertx();
    try (PrivatePgCluster cluster = PrivatePgCluster.start()) {
      PgConf conf = new PgConf("127.0.0.1", cluster.port(), "postgres", "postgres", "", 4, 3, 200, 16, 64, 200, 500, 6000);
      try (Connection c = PgTestDatabase.connect(conf)) {
        c.createStatement().execute("CREATE DATABASE argus");
      }
      conf = conf.withDatabase("argus");
      Database db = await(Database.postgres(vertx, conf));
      PgKnowledgeStore store = new PgKnowledgeStore(db, conf);
      await(store.checkEmbeddingModel("m", 8));

      AtomicInteger done = new AtomicInteger();
      CountDownLatch firstDone = new CountDownLatch(2);
      List<Future<UpsertResult>> writes = new ArrayList<>();
      for (int d = 0; d < DOCS; d++) {
        writes.add(write(store, "doc-" + d).onComplete(ar -> {
          done.incrementAndGet();
          firstDone.countDown();
        }));
      }
      assertTrue(firstDone.await(60, TimeUnit.SECONDS), "the first documents were stored");
      assertTrue(done.get() < DOCS, "the restart must happen while documents are in flight (done: " + done.get() + ")");
      cluster.stopServer();
      cluster.startServer();
      await(Future.join(new ArrayList<>(writes)).otherwiseEmpty());

      int failed = 0;
      for (int d = 0; d < DOCS; d++) {
        Future<UpsertResult> w = writes.get(d);
        String id = "doc-" + d;
        List<Chunk> stored = await(store.chunks(id, 0, CHUNKS));
        if (w.succeeded()) {
          assertEquals(CHUNKS, stored.size(), id + " was reported stored: it is whole");
        } else {
          failed++;
          String message = w.cause().getMessage();
          assertTrue(w.cause() instanceof PgStoreException, w.cause().toString());
          assertTrue(message.startsWith("document '" + id + "' was not stored (nothing of it was written): "), message);
          assertEquals(0, stored.size(), id + " failed: nothing of it is left");
          assertTrue(await(store.document(id)).isEmpty(), id + " failed: no document row");
        }
      }
      assertTrue(failed > 0, "some documents were in flight during the restart");

      // Later requests succeed without restarting Argus: the failed documents can be ingested again.
      for (int d = 0; d < DOCS; d++) {
        if (writes.get(d).failed()) {
          assertEquals(UpsertResult.Outcome.CREATED, await(write(store, "doc-" + d)).outcome());
        }
      }
      assertEquals(DOCS, await(store.stats()).documents());
      assertEquals((long) DOCS * CHUNKS, await(store.stats()).chunks());
      assertEquals("doc-3", await(store.keywordSearch("marker3", 5, SearchFilter.NONE)).get(0).documentId());
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }

  private static Future<UpsertResult> write(PgKnowledgeStore store, String id) {
    List<Chunk> chunks = new ArrayList<>();
    String filler = " The seller shipped parcels to forwarding addresses while the buyer disputed the charge.".repeat(10);
    for (int i = 0; i < CHUNKS; i++) {
      float[] v = new float[8];
      v[i % 8] = 1;
      chunks.add(new Chunk(id, i, CHUNKS, "Chunk " + i + " of " + id + " marker" + id.substring(4) + filler, v));
    }
    return store.upsert(new Document(id, "default", "Document " + id, null, "text of " + id, new JsonObject(),
        "hash-" + id, 0, null, null), chunks);
  }

}
