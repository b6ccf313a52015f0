package dev.argus.embed;

import dev.argus.embed.onnx.LocalModel;
import dev.argus.embed.onnx.OnnxEmbedder;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bundled ONNX embedders, against the real models (a handful of short texts keeps it quick). */
@ExtendWith(VertxExtension.class)
class OnnxEmbedderTest {

  private static final List<String> PASSAGES = List.of(
      "Account takeover: a fraudster logs in with stolen credentials and changes the payout bank account.",
      "Refund abuse happens when customers claim items never arrived to get their money back.",
      "The recipe needs two cups of flour, one egg and a pinch of salt.",
      "Mule accounts receive stolen funds and forward them quickly to other accounts.",
      "Short.");

  private static Vertx vertx;
  private static Embedder bge;
  private static Embedder minilm;

  @BeforeAll
  static void load() throws Exception {
    vertx = Vertx.vertx();
    bge = await(OnnxEmbedder.load(vertx, LocalModel.BGE_SMALL, 2, 2));
    minilm = await(OnnxEmbedder.load(vertx, LocalModel.MINILM, 2, 2));
  }

  @AfterAll
  static void close() throws Exception {
    await(bge.close());
    await(minilm.close());
    await(vertx.close());
  }

  @Test
  void namesAndDimensions() {
    assertEquals("bge-small-en-v1.5-q", bge.modelName());
    assertEquals("all-minilm-l6-v2-q", minilm.modelName());
    assertEquals(384, bge.dimension());
    assertEquals(384, minilm.dimension());
  }

  @Test
  void vectorsHaveUnitLengthAndTheModelsDimension() throws Exception {
    for (Embedder e : List.of(bge, minilm)) {
      List<float[]> vectors = await(e.embedPassages(PASSAGES));
      assertEquals(PASSAGES.size(), vectors.size());
      for (float[] v : vectors) {
        assertEquals(384, v.length);
        assertEquals(1.0, norm(v), 1e-4);
      }
      assertEquals(1.0, norm(await(e.embedQuery("mule accounts"))), 1e-4);
    }
  }

  @Test
  void queriesAreEmbeddedAsWrittenUnlessTheInstructionIsAskedFor() throws Exception {
    String text = "how do fraudsters take over accounts";
    // Default: the query session (2 threads, its own fast path) gives the passage session's vector of the same text.
    float[] bgeQuery = await(bge.embedQuery(text));
    float[] bgePassage = await(bge.embedPassages(List.of(text))).get(0);
    assertTrue(cosine(bgeQuery, bgePassage) > 0.9999, "bge query = passage of the same text");

    Embedder instructed = await(OnnxEmbedder.load(vertx, LocalModel.BGE_SMALL, 1, 2, 1, 1, 2, true, false));
    try {
      float[] withInstruction = await(instructed.embedQuery(text));
      assertTrue(cosine(withInstruction, bgePassage) < 0.99, "the instruction changes the query vector");
      float[] bgePrefixed = await(bge.embedPassages(List.of(LocalModel.BGE_SMALL.queryPrefix() + text))).get(0);
      assertTrue(cosine(withInstruction, bgePrefixed) > 0.9999, "instructed query = passage with the instruction prefix");
    } finally {
      await(instructed.close());
    }

    float[] miniQuery = await(minilm.embedQuery(text));
    float[] miniPassage = await(minilm.embedPassages(List.of(text))).get(0);
    assertTrue(cosine(miniQuery, miniPassage) > 0.9999, "MiniLM has no query prefix");
  }

  @Test
  void overlappingQueriesGetTheSameVectorsAsQueriesAlone() throws Exception {
    // Queries that overlap take the one-thread session, a query alone the query session (spinning here): the
    // vector must not depend on which one served it.
    Embedder spinning = await(OnnxEmbedder.load(vertx, LocalModel.BGE_SMALL, 2, 2, 1, 1, 2, false, true));
    try {
      List<float[]> alone = new java.util.ArrayList<>();
      for (String p : PASSAGES) {
        alone.add(await(spinning.embedQuery(p)));
      }
      List<io.vertx.core.Future<float[]>> overlapping = new java.util.ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (String p : PASSAGES) {
          overlapping.add(spinning.embedQuery(p));
        }
      }
      await(io.vertx.core.Future.all(overlapping));
      for (int i = 0; i < overlapping.size(); i++) {
        float[] v = overlapping.get(i).result();
        assertTrue(cosine(v, alone.get(i % PASSAGES.size())) > 0.9999, "query " + i);
      }
    } finally {
      await(spinning.close());
    }
  }

  @Test
  void relatedTextsScoreHigherThanUnrelatedOnes() throws Exception {
    for (Embedder e : List.of(bge, minilm)) {
      float[] query = await(e.embedQuery("Which accounts forward stolen money?"));
      List<float[]> p = await(e.embedPassages(PASSAGES));
      double mule = cosine(query, p.get(3));
      double recipe = cosine(query, p.get(2));
      assertTrue(mule > recipe + 0.1, e.modelName() + ": mule " + mule + " vs recipe " + recipe);
    }
  }

  @Test
  void batchedResultEqualsOneByOne() throws Exception {
    // Batch size 2 and texts of very different lengths: padding must not change any vector.
    for (Embedder e : List.of(bge, minilm)) {
      List<float[]> batched = await(e.embedPassages(PASSAGES));
      for (int i = 0; i < PASSAGES.size(); i++) {
        float[] single = await(e.embedPassages(List.of(PASSAGES.get(i)))).get(0);
        assertTrue(cosine(batched.get(i), single) > 0.9999, e.modelName() + " text " + i);
      }
    }
  }

  @Test
  void paddedBatchesStayCloseToUnbatchedVectors() throws Exception {
    // The opt-in padded-batch path: the dynamically quantized model shifts vectors slightly (see OnnxEmbedder).
    Embedder padded = await(OnnxEmbedder.load(vertx, LocalModel.BGE_SMALL, 1, 5, 5, 2));
    try {
      List<float[]> batched = await(padded.embedPassages(PASSAGES));
      List<float[]> exact = await(bge.embedPassages(PASSAGES));
      for (int i = 0; i < PASSAGES.size(); i++) {
        assertEquals(1.0, norm(batched.get(i)), 1e-4);
        double c = cosine(exact.get(i), batched.get(i));
        assertTrue(c > 0.98, "text " + i + ": cosine " + c);
      }
      double mule = cosine(await(padded.embedQuery("Which accounts forward stolen money?")), batched.get(3));
      double recipe = cosine(await(padded.embedQuery("Which accounts forward stolen money?")), batched.get(2));
      assertTrue(mule > recipe + 0.1);
    } finally {
      await(padded.close());
    }
  }

  @Test
  void matchesLangchain4jsOwnModelOutput() throws Exception {
    check(bge, new BgeSmallEnV15QuantizedEmbeddingModel());
    check(minilm, new AllMiniLmL6V2QuantizedEmbeddingModel());
  }

  private static void check(Embedder ours, EmbeddingModel reference) throws Exception {
    List<float[]> vectors = await(ours.embedPassages(PASSAGES));
    for (int i = 0; i < PASSAGES.size(); i++) {
      float[] expected = reference.embed(PASSAGES.get(i)).content().vector();
      double c = cosine(expected, vectors.get(i));
      assertTrue(c > 0.999, ours.modelName() + " text " + i + ": cosine " + c);
    }
  }

  @Test
  void resultArrivesOnTheCallersContextAndInferenceRunsOffTheEventLoop() throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<List<Object>> seen = new CompletableFuture<>();
    ctx.runOnContext(v -> bge.embedPassages(PASSAGES.subList(0, 3)).onComplete(ar -> {
      List<Object> facts = new ArrayList<>();
      facts.add(Vertx.currentContext());
      facts.add(ar.succeeded() && ar.result().size() == 3);
      seen.complete(facts);
    }));
    List<Object> facts = seen.get(60, TimeUnit.SECONDS);
    assertSame(ctx, facts.get(0));
    assertEquals(true, facts.get(1));
  }

  @Test
  void emptyInputGivesEmptyOutput() throws Exception {
    assertTrue(await(bge.embedPassages(List.of())).isEmpty());
    assertFalse(bge.toString().isEmpty());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    return Math.sqrt(s);
  }

  static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
    }
    return dot / (norm(a) * norm(b));
  }
}
