package dev.argus.embed.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.SoftReference;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The bundled models' graphs as the encoders run them. {@link #fused} is the model as ONNX Runtime optimizes it
 * (level {@code EXTENDED}, which is portable: no layouts for this machine's instruction set), then rewritten by
 * {@link BertGraphFusion}, once per model (kept, softly, for the model's next session). Before it is used, the
 * fused graph and the optimized one run the same probe batch (two texts, one padded), and it is used only if every
 * unmasked output agrees to {@value #TOLERANCE}; otherwise, or if anything fails, the model runs as shipped and a
 * warning says why.
 */
public final class ModelGraphs {

  private static final Logger LOG = Logger.getLogger(ModelGraphs.class.getName());

  /** Largest difference allowed between the fused and the optimized graph's hidden states on the probe batch. */
  static final double TOLERANCE = 1e-4;

  // Softly held: a service loads each model once or twice at start-up, and the 34 MB are then the session's own.
  private static final Map<LocalModel, SoftReference<byte[]>> FUSED = new EnumMap<>(LocalModel.class);

  private ModelGraphs() {
  }

  /** The model file as shipped in its Maven artifact. */
  public static byte[] shipped(LocalModel model) {
    try (InputStream in = ModelGraphs.class.getResourceAsStream(model.modelResource())) {
      if (in == null) {
        throw new IllegalStateException("embedding model " + model.modelResource() + " is not on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read embedding model " + model.modelResource() + ": " + e.getMessage(), e);
    }
  }

  /** The fused graph of {@code model}, or the shipped one when fusion does not apply or does not check out. */
  public static byte[] fused(LocalModel model) {
    synchronized (FUSED) {
      SoftReference<byte[]> cached = FUSED.get(model);
      byte[] bytes = cached == null ? null : cached.get();
      if (bytes == null) {
        bytes = fuse(model.modelName(), shipped(model));
        FUSED.put(model, new SoftReference<>(bytes));
      }
      return bytes;
    }
  }

  /** The shipped model as ONNX Runtime optimizes it at level {@code EXTENDED}, as ONNX bytes. */
  static byte[] optimized(LocalModel model) throws OrtException, IOException {
    try (Optimized optimized = optimize(OrtEnvironment.getEnvironment(), shipped(model))) {
      return optimized.graph();
    }
  }

  /** {@code shipped} fused and checked, or {@code shipped} itself (see the class comment). */
  static byte[] fuse(String name, byte[] shipped) {
    long start = System.nanoTime();
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (Optimized optimized = optimize(env, shipped)) {
      BertGraphFusion.Result result = BertGraphFusion.fuse(optimized.graph());
      if (!result.changed()) {
        LOG.info(name + ": no graph fusion applies; running the model as shipped");
        return shipped;
      }
      try (OrtSession.SessionOptions options = options(OrtSession.SessionOptions.OptLevel.ALL_OPT);
           OrtSession fused = env.createSession(result.model(), options)) {
        double diff = maxDifference(env, optimized.session(), fused);
        if (!(diff <= TOLERANCE)) {
          LOG.warning(name + ": the fused graph differs from the shipped one by " + diff
              + " on the probe batch; running the model as shipped");
          return shipped;
        }
        LOG.info(String.format("%s: fused %s in %d ms (probe difference %.1e)", name, result,
            (System.nanoTime() - start) / 1_000_000, diff));
        return result.model();
      }
    } catch (OrtException | IOException | RuntimeException e) {
      LOG.warning(name + ": graph fusion failed (" + e + "); running the model as shipped");
      return shipped;
    }
  }

  /** A session on the model optimized at level {@code EXTENDED}, and that optimized graph as ONNX bytes. */
  private record Optimized(OrtSession session, byte[] graph) implements AutoCloseable {
    @Override
    public void close() throws OrtException {
      session.close();
    }
  }

  private static Optimized optimize(OrtEnvironment env, byte[] model) throws OrtException, IOException {
    Path file = Files.createTempFile("argus-model-", ".onnx");
    try (OrtSession.SessionOptions options = options(OrtSession.SessionOptions.OptLevel.EXTENDED_OPT)) {
      options.setOptimizedModelFilePath(file.toString());
      OrtSession session = env.createSession(model, options);
      try {
        return new Optimized(session, Files.readAllBytes(file));
      } catch (IOException e) {
        session.close();
        throw e;
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static OrtSession.SessionOptions options(OrtSession.SessionOptions.OptLevel level) throws OrtException {
    OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    options.setIntraOpNumThreads(1);
    options.setInterOpNumThreads(1);
    options.addConfigEntry("session.intra_op.allow_spinning", "0");
    options.setOptimizationLevel(level);
    return options;
  }

  /** The largest difference between two sessions' hidden states at the unmasked positions of a probe batch. */
  static double maxDifference(OrtEnvironment env, OrtSession a, OrtSession b) throws OrtException {
    int len = 12;
    int[] lengths = {len, 7};
    long[] ids = new long[2 * len];
    long[] mask = new long[2 * len];
    for (int row = 0; row < 2; row++) {
      for (int t = 0; t < lengths[row]; t++) {
        ids[row * len + t] = t == 0 ? 101 : t == lengths[row] - 1 ? 102 : 1996 + 37L * t + 101L * row;
        mask[row * len + t] = 1;
      }
    }
    float[] x = hidden(env, a, ids, mask, len);
    float[] y = hidden(env, b, ids, mask, len);
    if (x.length != y.length) {
      return Double.POSITIVE_INFINITY;
    }
    int dim = x.length / ids.length;
    double max = 0;
    for (int i = 0; i < x.length; i++) {
      if (mask[i / dim] == 1) {
        max = Math.max(max, Math.abs(x[i] - y[i]));
      }
    }
    return max;
  }

  private static float[] hidden(OrtEnvironment env, OrtSession session, long[] ids, long[] mask, int len)
      throws OrtException {
    long[] shape = {ids.length / len, len};
    try (OnnxTensor idsT = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
         OnnxTensor maskT = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
         OnnxTensor typesT = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape)) {
      Map<String, OnnxTensor> inputs = new HashMap<>();
      inputs.put("input_ids", idsT);
      inputs.put("attention_mask", maskT);
      if (session.getInputNames().contains("token_type_ids")) {
        inputs.put("token_type_ids", typesT);
      }
      try (OrtSession.Result result = session.run(inputs)) {
        FloatBuffer buffer = ((OnnxTensor) result.get(0)).getFloatBuffer();
        float[] out = new float[buffer.remaining()];
        buffer.get(out);
        return out;
      }
    }
  }
}
