package dev.argus.embed.onnx;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Batched BERT-style sentence encoder on ONNX Runtime. Blocking and CPU-heavy: call it from a worker thread only.
 *
 * <p>Texts are tokenized (truncated to {@value #MAX_TOKENS} tokens), sorted by length so that each batch pads as
 * little as possible, run through the model in batches padded to the batch's longest text, pooled (CLS or
 * attention-weighted mean) and L2-normalized. Results come back in the input order. Thread-safe (ONNX Runtime
 * sessions and the HuggingFace tokenizer may be used concurrently).
 */
public final class BertOnnxEncoder implements AutoCloseable {

  public static final int MAX_TOKENS = 512;

  private final LocalModel model;
  private final OrtEnvironment env;
  private final OrtSession session;
  private final HuggingFaceTokenizer tokenizer;
  private final boolean wantsTokenTypes;

  private BertOnnxEncoder(LocalModel model, OrtEnvironment env, OrtSession session, HuggingFaceTokenizer tokenizer) {
    this.model = model;
    this.env = env;
    this.session = session;
    this.tokenizer = tokenizer;
    this.wantsTokenTypes = session.getInputNames().contains("token_type_ids");
  }

  /** Loads the model and tokenizer from the classpath; {@code threads} is ONNX Runtime's intra-op thread count. */
  public static BertOnnxEncoder load(LocalModel model, int threads) {
    return load(model, threads, true);
  }

  /** As {@link #load(LocalModel, int, boolean, boolean)} on the fused graph ({@link ModelGraphs#fused}). */
  public static BertOnnxEncoder load(LocalModel model, int threads, boolean spinning) {
    return load(model, threads, spinning, true);
  }

  /**
   * As {@link #load(LocalModel, int)}; {@code spinning} lets ONNX Runtime's intra-op threads spin while waiting for
   * work (its default: lowest latency on an idle machine). With more than one thread and other work competing for
   * the cores (concurrent searches), spinning threads burn the CPU that other requests need, so the query session
   * turns it off. {@code fused} runs the graph {@link ModelGraphs#fused} gives (the same numbers, fewer and larger
   * operators), otherwise the model as shipped.
   */
  public static BertOnnxEncoder load(LocalModel model, int threads, boolean spinning, boolean fused) {
    byte[] onnx = fused ? ModelGraphs.fused(model) : ModelGraphs.shipped(model);
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
      options.setIntraOpNumThreads(threads);
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      if (!spinning) {
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
      } else if (threads > 1) {
        // Spin between the operators of one call, but stop the moment the call returns, so that the pool's threads
        // do not go on spinning on the cores the event loop and the next search legs need.
        options.addConfigEntry("session.force_spinning_stop", "1");
      }
      OrtSession session = env.createSession(onnx, options);
      HuggingFaceTokenizer tokenizer;
      try (InputStream in = BertOnnxEncoder.class.getResourceAsStream(model.tokenizerResource())) {
        if (in == null) {
          throw new IllegalStateException("tokenizer " + model.tokenizerResource() + " is not on the classpath");
        }
        tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of(
            "padding", "false",
            "truncation", "true",
            "maxLength", String.valueOf(MAX_TOKENS),
            "addSpecialTokens", "true"));
      }
      return new BertOnnxEncoder(model, env, session, tokenizer);
    } catch (OrtException | IOException e) {
      throw new IllegalStateException("cannot load embedding model " + model.modelName() + ": " + e.getMessage(), e);
    }
  }

  public LocalModel model() {
    return model;
  }

  public int dimension() {
    return LocalModel.DIMENSION;
  }

  /**
   * Embeds {@code texts} (as given: no prefix added) in batches of at most {@code batchSize}, shortest first.
   * Returns one unit-length vector per text, in input order.
   */
  public List<float[]> embed(List<String> texts, int batchSize) {
    if (texts.isEmpty()) {
      return List.of();
    }
    Encoding[] encodings = tokenizer.batchEncode(texts);
    Integer[] order = IntStream.range(0, encodings.length).boxed().toArray(Integer[]::new);
    java.util.Arrays.sort(order, Comparator.comparingInt(i -> encodings[i].getIds().length));
    float[][] out = new float[texts.size()][];
    for (int start = 0; start < order.length; start += batchSize) {
      int end = Math.min(order.length, start + batchSize);
      List<Encoding> batch = new ArrayList<>(end - start);
      for (int i = start; i < end; i++) {
        batch.add(encodings[order[i]]);
      }
      float[][] vectors = run(batch);
      for (int i = start; i < end; i++) {
        out[order[i]] = vectors[i - start];
      }
    }
    return List.of(out);
  }

  /**
   * Embeds one text (as given: no prefix added): the query path. One tokenizer call, no sorting or batching, and
   * only the pooled row is read out of the model's output (for CLS pooling, 384 floats instead of the whole
   * tokens x 384 hidden state as nested Java arrays).
   */
  public float[] embedOne(String text) {
    Encoding e = tokenizer.encode(text);
    return run(List.of(e))[0];
  }

  /** Runs one padded batch through the model and pools it. */
  private float[][] run(List<Encoding> batch) {
    int n = batch.size();
    int len = batch.stream().mapToInt(e -> e.getIds().length).max().orElse(0);
    long[] ids = new long[n * len];
    long[] mask = new long[n * len];
    long[] types = new long[n * len];
    for (int b = 0; b < n; b++) {
      Encoding e = batch.get(b);
      long[] eIds = e.getIds();
      System.arraycopy(eIds, 0, ids, b * len, eIds.length);
      System.arraycopy(e.getAttentionMask(), 0, mask, b * len, eIds.length);
      System.arraycopy(e.getTypeIds(), 0, types, b * len, eIds.length);
    }
    long[] shape = {n, len};
    try (OnnxTensor idsT = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
         OnnxTensor maskT = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
         OnnxTensor typesT = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape)) {
      Map<String, OnnxTensor> inputs = new HashMap<>();
      inputs.put("input_ids", idsT);
      inputs.put("attention_mask", maskT);
      if (wantsTokenTypes) {
        inputs.put("token_type_ids", typesT);
      }
      try (OrtSession.Result result = session.run(inputs)) {
        // Read the hidden state [n, len, dim] straight from the native buffer: no float[n][len][dim] copy.
        FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
        int dim = LocalModel.DIMENSION;
        float[][] pooled = new float[n][];
        for (int b = 0; b < n; b++) {
          pooled[b] = normalize(pool(hidden, b * len * dim, dim, mask, b * len, len));
        }
        return pooled;
      }
    } catch (OrtException e) {
      throw new IllegalStateException("embedding inference failed (" + model.modelName() + "): " + e.getMessage(), e);
    }
  }

  /** Pools one text's rows of the hidden state, which start at {@code base} in {@code hidden}. */
  private float[] pool(FloatBuffer hidden, int base, int dim, long[] mask, int offset, int len) {
    float[] sum = new float[dim];
    if (model.pooling() == LocalModel.Pooling.CLS) {
      hidden.get(base, sum);
      return sum;
    }
    float[] row = new float[dim];
    int count = 0;
    for (int t = 0; t < len; t++) {
      if (mask[offset + t] == 0) {
        continue;
      }
      count++;
      hidden.get(base + t * dim, row);
      for (int d = 0; d < dim; d++) {
        sum[d] += row[d];
      }
    }
    for (int d = 0; d < sum.length; d++) {
      sum[d] /= Math.max(1, count);
    }
    return sum;
  }

  static float[] normalize(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += (double) x * x;
    }
    norm = Math.sqrt(norm);
    if (norm == 0) {
      return v;
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / norm);
    }
    return v;
  }

  @Override
  public void close() {
    try {
      session.close();
    } catch (OrtException e) {
      // nothing left to release
    } finally {
      tokenizer.close();
    }
  }
}
