package dev.argus.app;

import dev.argus.embed.Embedder;
import dev.argus.app.Embedders;

import dev.argus.config.EmbeddingConf;
import dev.argus.config.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import static dev.argus.testing.Await.await;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Embedders#create} picks the embedder the configuration names. */
class EmbeddersTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    await(vertx.close());
  }

  @Test
  void bundledMiniLmFromConfiguration() throws Exception {
    EmbeddingConf conf = EmbeddingConf.from(new Settings("embedding",
        new JsonObject().put("provider", "minilm").put("threads", 1).put("batchSize", 4)));
    Embedder e = await(Embedders.create(vertx, conf));
    assertEquals("all-minilm-l6-v2-q", e.modelName());
    List<float[]> v = await(e.embedPassages(List.of("a", "b", "c", "d", "e", "f")));
    assertEquals(6, v.size());
    assertTrue(cosine(v.get(0), v.get(1)) < 0.9999);
    await(e.close());
  }

  @Test
  void openAiWithAConfiguredDimensionNeedsNoProbe() throws Exception {
    // Nothing listens on port 9: with embedding.dimension set, creation makes no request and succeeds.
    EmbeddingConf conf = EmbeddingConf.from(new Settings("embedding", new JsonObject().put("provider", "openai")
        .put("baseUrl", "http://127.0.0.1:9").put("model", "m").put("dimension", 8).put("apiKey", "secret")));
    Embedder e = await(Embedders.create(vertx, conf));
    assertEquals(8, e.dimension());
    assertEquals("m", e.modelName());
    assertTrue(!e.toString().contains("secret"));
    await(e.close());
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }
}
