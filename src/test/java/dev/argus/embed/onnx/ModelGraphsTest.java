package dev.argus.embed.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fused graphs of the bundled models, against the models as shipped: same vectors, fewer operators. */
class ModelGraphsTest {

  private static final List<String> TEXTS = List.of(
      "Mule accounts receive stolen funds and forward them quickly to other accounts.",
      "Short.",
      "Account takeover: a fraudster logs in with stolen credentials, changes the payout bank account, the email "
          + "address and the phone number, and then withdraws the balance before the owner notices anything.",
      "0-dimensional biomaterials show inductive properties.",
      "ALDH1 expression is associated with poorer prognosis for breast cancer primary tumors.");

  @ParameterizedTest
  @EnumSource(LocalModel.class)
  void fusesEveryLayersAttentionBiasesAndResidualNormalisations(LocalModel model) throws Exception {
    byte[] optimized = ModelGraphs.optimized(model);
    BertGraphFusion.Result r = BertGraphFusion.fuse(optimized);
    int layers = model == LocalModel.BGE_SMALL ? 12 : 6;
    assertEquals(layers, r.attention(), r.toString());
    // Per layer: the attention output's and both feed-forward products' biases (query, key and value went into
    // the attention); and the two residual normalisations.
    assertEquals(2 * layers, r.biases(), r.toString());
    assertEquals(2 * layers, r.skipNorms(), r.toString());
    int before = OnnxModel.parse(optimized).nodes().size();
    int after = OnnxModel.parse(r.model()).nodes().size();
    assertTrue(after < before / 2, before + " -> " + after + " nodes");
  }

  @ParameterizedTest
  @EnumSource(LocalModel.class)
  void fusedEncoderGivesTheShippedModelsVectors(LocalModel model) {
    assertFalse(java.util.Arrays.equals(ModelGraphs.shipped(model), ModelGraphs.fused(model)), "fusion applied");
    try (BertOnnxEncoder shipped = BertOnnxEncoder.load(model, 1, false, false);
         BertOnnxEncoder fused = BertOnnxEncoder.load(model, 1, false, true)) {
      // Batches of 3 padded to their longest text: the mask must work the same way in the fused attention.
      List<float[]> expected = shipped.embed(TEXTS, 3);
      List<float[]> actual = fused.embed(TEXTS, 3);
      for (int i = 0; i < TEXTS.size(); i++) {
        assertArrayEquals(expected.get(i), actual.get(i), 2e-6f, model + " text " + i);
        assertArrayEquals(shipped.embedOne(TEXTS.get(i)), fused.embedOne(TEXTS.get(i)), 2e-6f, model + " query " + i);
      }
    }
  }

  @Test
  void graphWithoutThePatternsIsLeftAlone() {
    // The shipped graph, before ONNX Runtime's optimizer: plain MatMulInteger, no fused quantized products.
    BertGraphFusion.Result r = BertGraphFusion.fuse(ModelGraphs.shipped(LocalModel.BGE_SMALL));
    assertFalse(r.changed(), r.toString());
  }

  @Test
  void modelThatCannotBeFusedRunsAsShipped() {
    // Not an ONNX model at all: ONNX Runtime refuses it, and the bytes come back untouched (the encoder's own
    // session then reports the error, as it did before fusion existed).
    byte[] garbage = {8, 7, 1, 2, 3};
    assertSame(garbage, ModelGraphs.fuse("garbage", garbage));
  }

  @Test
  void probeTellsDifferentGraphsApart() throws Exception {
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions options = new OrtSession.SessionOptions();
         OrtSession bge = env.createSession(ModelGraphs.shipped(LocalModel.BGE_SMALL), options);
         OrtSession bgeFused = env.createSession(ModelGraphs.fused(LocalModel.BGE_SMALL), options);
         OrtSession minilm = env.createSession(ModelGraphs.shipped(LocalModel.MINILM), options)) {
      assertTrue(ModelGraphs.maxDifference(env, bge, bgeFused) <= ModelGraphs.TOLERANCE);
      assertTrue(ModelGraphs.maxDifference(env, bge, minilm) > 100 * ModelGraphs.TOLERANCE);
    }
  }
}
