package dev.argus.knowledge.pg;

import dev.argus.app.ServiceFactory;
import dev.argus.app.Services;
import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code store.type=postgres} end to end through the service's own wiring: the configured (bundled) embedder's
 * model and dimension are recorded, the vector column gets that dimension and the HNSW index, and real embeddings
 * round-trip through the PostgreSQL store.
 */
class PgServicesTest {

  @TempDir
  Path dir;

  @Test
  void servicesOpenOnPostgresWithTheBundledEmbedder() {
    Vertx vertx = Vertx.vertx();
    try (PgTestDatabase pg = PgTestDatabase.create()) {
      ArgusConfig conf = pg.serve(TestApp.config(dir));
      Services services = await(ServiceFactory.open(vertx, conf));
      try {
        assertEquals("postgres", services.knowledge().type());
        var stats = await(services.knowledge().stats());
        assertEquals(services.embedder().modelName(), stats.embeddingModel());
        assertEquals(services.embedder().dimension(), stats.dimension());
        String def = await(services.database().pool().query("SELECT format_type(atttypid, atttypmod) FROM pg_attribute"
            + " WHERE attrelid = 'chunks'::regclass AND attname = 'embedding'").execute()).iterator().next().getString(0);
        assertEquals("vector(" + services.embedder().dimension() + ")", def);
        List<String> texts = List.of("Account takeover begins with credential stuffing and a password reset.",
            "Refund abuse: buyers return empty boxes and claim a refund.");
        List<float[]> vectors = await(services.embedder().embedPassages(texts));
        for (int i = 0; i < texts.size(); i++) {
          await(services.knowledge().upsert(new Document("d" + i, "default", "Doc " + i, null, texts.get(i), new JsonObject(),
              null, 0, null, null), List.of(new Chunk("d" + i, 0, 1, texts.get(i), vectors.get(i)))));
        }
        float[] q = await(services.embedder().embedQuery("someone took over my account after resetting the password"));
        List<ScoredChunk> hits = await(services.knowledge().vectorSearch(q, 2, SearchFilter.NONE));
        assertEquals("d0", hits.get(0).documentId());
        assertTrue(hits.get(0).score() > hits.get(1).score());
      } finally {
        await(services.close());
      }
    } finally {
      await(vertx.close());
    }
  }
}
