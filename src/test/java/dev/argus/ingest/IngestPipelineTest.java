package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.embed.Embedder;
import dev.argus.app.Embedders;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.app.KnowledgeStores;
import dev.argus.store.Database;
import dev.argus.testing.FakeEmbeddingServer;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.ingest.IngestTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ingestion pipeline over a real SQLite store and a real HTTP embedding server: embedding batches are filled
 * across document groups, outcomes come in document order, and a document id repeated within one job is written in
 * order (the later copy sees the earlier one).
 */
class IngestPipelineTest {

  private Vertx vertx;
  private FakeEmbeddingServer embeddings;
  private Database db;
  private KnowledgeStore store;
  private Embedder embedder;
  private IngestService service;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    embeddings = await(FakeEmbeddingServer.start(vertx));
    // one sentence per chunk; batches of 4 passages, one embedding request per batch
    ArgusConfig conf = embeddings.configure(TestApp.config(TestApp.tempDataDir()))
        .with("embedding", "batchSize", 4)
        .with("ingest", "embedBatchSize", 4)
        .with("ingest", "chunkTargetChars", 60)
        .with("ingest", "chunkMaxChars", 120)
        .with("ingest", "overlapSentences", 0);
    db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
    store = await(KnowledgeStores.create(db, conf));
    embedder = await(Embedders.create(vertx, conf.embedding()));
    service = new IngestService(vertx, conf.ingest(), embedder, store);
  }

  @AfterEach
  void stop() {
    await(store.close());
    await(embedder.close());
    await(db.close());
    await(vertx.close());
  }

  /** Three sentences (three chunks) of about 45 characters each. */
  private static SourceDocument doc(String id, String word) {
    String text = "First note on " + word + " refund patterns here. Second note on " + word
        + " chargeback trends now. Third note on " + word + " account takeover risk.";
    return new SourceDocument(id, "T " + id, text, Format.TEXT, null, "default", null, "document " + id, false);
  }

  @Test
  void batchesAreFullAcrossDocumentGroups() {
    List<SourceDocument> docs = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      docs.add(doc("p-" + i, "topic" + i));
    }
    // each document (~130 chars) is a group of its own: embedBatchSize * chunkTargetChars = 240
    assertEquals(1, IngestService.groupEnd(docs, 0, dev.argus.config.IngestConf.from(
        new dev.argus.config.Settings("ingest", new io.vertx.core.json.JsonObject()
            .put("embedBatchSize", 4).put("chunkTargetChars", 60).put("chunkMaxChars", 120)))));
    List<List<DocumentOutcome>> reports = new ArrayList<>();
    boolean cut = await(service.ingestAll(docs, reports::add, () -> false));
    assertFalse(cut);
    List<DocumentOutcome> outcomes = reports.stream().flatMap(List::stream).toList();
    assertEquals(7, outcomes.size());
    for (int i = 0; i < 7; i++) {
      assertEquals("p-" + i, outcomes.get(i).id(), "in document order");
      assertEquals(DocumentOutcome.Outcome.CREATED, outcomes.get(i).outcome(), outcomes.get(i).toString());
      assertEquals(3, outcomes.get(i).chunks());
    }
    // 21 chunks in batches of 4 across the 7 groups: 4,4,4,4,4,1 = 6 requests (group by group it would be 7 of 3)
    assertEquals(21, embeddings.inputCount());
    assertEquals(6, embeddings.requestCount());
    assertEquals(7, await(store.list(null, 0, 10)).total());
    assertEquals(3, await(store.document("p-6")).orElseThrow().chunkCount());
  }

  @Test
  void repeatedIdInOneJobIsWrittenInOrder() {
    List<SourceDocument> docs = List.of(doc("r-a", "alpha"), doc("r-b", "beta"), doc("r-a", "alpha"),
        doc("r-c", "gamma"), doc("r-c", "delta"));
    List<DocumentOutcome> outcomes = await(service.ingest(docs));
    assertEquals(List.of("r-a", "r-b", "r-a", "r-c", "r-c"), outcomes.stream().map(DocumentOutcome::id).toList());
    assertEquals(List.of(DocumentOutcome.Outcome.CREATED, DocumentOutcome.Outcome.CREATED,
            DocumentOutcome.Outcome.UNCHANGED, DocumentOutcome.Outcome.CREATED, DocumentOutcome.Outcome.REPLACED),
        outcomes.stream().map(DocumentOutcome::outcome).toList());
    assertTrue(await(store.document("r-c")).orElseThrow().text().contains("delta"), "the later copy wins");
    assertEquals(3, await(store.list(null, 0, 10)).total());
    // the unchanged copy was not embedded again: 4 written documents x 3 chunks
    assertEquals(12, embeddings.inputCount());
  }
}
