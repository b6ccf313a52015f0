package dev.argus.embed.onnx;

import dev.argus.embed.Embedder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link Embedder} over a bundled ONNX model. Inference runs on the named worker pool {@code argus-embedding-<model>},
 * never on an event loop.
 *
 * <p>How a call is spread over the CPU (chosen by measurement, see {@code argus bench-embed}): the texts are cut
 * into slices of {@code batchSize}; up to {@code threads} slices of one call run at the same time, each on its
 * own worker with a single-threaded ONNX Runtime session call per text ({@code inferenceBatch} 1). On this
 * 2-core machine that beat one padded batch on 2 intra-op threads, and it keeps every vector identical to the
 * model's unbatched output: the bundled models are dynamically int8-quantized, so padded batches shift the
 * activation scales and the vectors by up to 1-2% (cosine 0.98-0.996). {@code inferenceBatch > 1} turns on padded
 * batches (sorted by length to reduce padding) for machines where they pay off. The pool has one worker more than
 * {@code threads}, so a query never queues behind a large ingest call.
 *
 * <p>Queries run on the passages' single-threaded session by default ({@code queryThreads} 1). On the shipped graph
 * one thread was the fastest for a short query (about 22 tokens: p50 3.7-4.8 ms against 5.9-6.4 ms for two threads
 * that sleep between its 366 operators). On the fused graph ({@link ModelGraphs}, 110 operators) two sleeping
 * threads were faster in one harness and slower in {@code bench-embed}, and over HTTP, where the client and the
 * event loop want the same two cores, no better, so one stays the default. With {@code queryThreads > 1} a query that runs alone takes a session
 * of its own with that many intra-op threads (spinning only when {@code querySpinning}), and overlapping queries
 * fall back to the one-thread session (see {@link #embedQuery}). A query takes the {@link BertOnnxEncoder#embedOne} path: one tokenizer call and
 * only the pooled row read from the model's output. Queries are embedded as written by default; bge's retrieval
 * instruction ({@code embedding.queryInstruction}) costs a third more tokens on a short query and, on SciFact's 809
 * train queries, scored the same alone (vector nDCG@10 0.7520 with, 0.7507 without) and lower in the default hybrid
 * search (0.7760 with, 0.7808 without).
 */
public final class OnnxEmbedder implements Embedder {

  /** Prefix of the worker pool's name; the model name follows (e.g. {@code argus-embedding-bge-small-en-v1.5-q}). */
  public static final String WORKER_POOL = "argus-embedding";

  private final Vertx vertx;
  private final BertOnnxEncoder encoder;
  private final BertOnnxEncoder queryEncoder;
  private final WorkerExecutor worker;
  private final int lanes;
  private final int batchSize;
  private final int inferenceBatch;
  private final String queryPrefix;
  private final AtomicInteger queriesRunning = new AtomicInteger();

  private OnnxEmbedder(Vertx vertx, BertOnnxEncoder encoder, BertOnnxEncoder queryEncoder, WorkerExecutor worker,
                       int lanes, int batchSize, int inferenceBatch, String queryPrefix) {
    this.queryPrefix = queryPrefix;
    this.vertx = vertx;
    this.encoder = encoder;
    this.queryEncoder = queryEncoder;
    this.worker = worker;
    this.lanes = lanes;
    this.batchSize = batchSize;
    this.inferenceBatch = inferenceBatch;
  }

  /**
   * {@code threads} concurrent single-text inference calls, one intra-op thread each; queries on the same
   * single-threaded session (the service's default, {@code embedding.queryThreads} 1).
   */
  public static Future<Embedder> load(Vertx vertx, LocalModel model, int threads, int batchSize) {
    return load(vertx, model, threads, batchSize, 1, 1, 1, false, false);
  }

  /** As {@link #load(Vertx, LocalModel, int, int, int, int, int)} with queries on the passages' session. */
  public static Future<Embedder> load(Vertx vertx, LocalModel model, int lanes, int batchSize, int inferenceBatch,
                                      int intraOpThreads) {
    return load(vertx, model, lanes, batchSize, inferenceBatch, intraOpThreads, intraOpThreads, false, false);
  }

  /**
   * Loads {@code model} on the worker pool (a second or two) and returns the ready embedder.
   *
   * @param lanes          slices of one call embedded at the same time
   * @param batchSize      texts per slice (one worker task)
   * @param inferenceBatch texts per ONNX Runtime call (padded to the longest); 1 = unpadded, exact
   * @param intraOpThreads ONNX Runtime threads per inference call
   * @param queryThreads   ONNX Runtime threads of the query session (the passages' session when equal to
   *                       {@code intraOpThreads})
   * @param queryInstruction whether queries carry the model's retrieval instruction ({@link LocalModel#queryPrefix()})
   * @param querySpinning  whether the query session's threads spin between operators (lowest latency on an idle
   *                       machine; on a busy one the spinning threads take the CPU other work needs)
   */
  public static Future<Embedder> load(Vertx vertx, LocalModel model, int lanes, int batchSize, int inferenceBatch,
                                      int intraOpThreads, int queryThreads, boolean queryInstruction,
                                      boolean querySpinning) {
    WorkerExecutor worker = vertx.createSharedWorkerExecutor(WORKER_POOL + "-" + model.modelName(), lanes + 1);
    return worker.<Embedder>executeBlocking(() -> {
          BertOnnxEncoder passages = BertOnnxEncoder.load(model, intraOpThreads);
          BertOnnxEncoder queries = queryThreads == intraOpThreads ? passages
              : BertOnnxEncoder.load(model, queryThreads, querySpinning);
          return new OnnxEmbedder(vertx, passages, queries, worker, lanes, batchSize, inferenceBatch,
              queryInstruction ? model.queryPrefix() : "");
        }, false)
        .onFailure(err -> worker.close());
  }

  @Override
  public String modelName() {
    return encoder.model().modelName();
  }

  @Override
  public int dimension() {
    return encoder.dimension();
  }

  @Override
  public Future<List<float[]>> embedPassages(List<String> texts) {
    List<String> copy = List.copyOf(texts);
    if (copy.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    int slices = (copy.size() + batchSize - 1) / batchSize;
    float[][] out = new float[copy.size()][];
    List<Future<Void>> laneFutures = new ArrayList<>();
    for (int lane = 0; lane < Math.min(lanes, slices); lane++) {
      Future<Void> chain = Future.succeededFuture();
      for (int s = lane; s < slices; s += lanes) {
        int from = s * batchSize;
        List<String> part = copy.subList(from, Math.min(copy.size(), from + batchSize));
        chain = chain.compose(v -> worker.executeBlocking(() -> encoder.embed(part, inferenceBatch), false)
            .map(vectors -> {
              for (int i = 0; i < vectors.size(); i++) {
                out[from + i] = vectors.get(i);
              }
              return null;
            }));
      }
      laneFutures.add(chain);
    }
    return Future.all(laneFutures).map(v -> List.of(out));
  }

  /**
   * A query that runs alone takes the query session (all of its {@code queryThreads} threads for one short text).
   * A query that arrives while another is running takes the passages' single-threaded session instead, so that
   * concurrent searches use one core each rather than contending for the same threads of one session.
   */
  @Override
  public Future<float[]> embedQuery(String text) {
    String prefixed = queryPrefix + text;
    return worker.executeBlocking(() -> {
      boolean alone = queriesRunning.getAndIncrement() == 0;
      try {
        return (alone ? queryEncoder : encoder).embedOne(prefixed);
      } finally {
        queriesRunning.decrementAndGet();
      }
    }, false);
  }

  @Override
  public Future<Void> close() {
    return worker.close().eventually(() -> vertx.executeBlocking(() -> {
      encoder.close();
      if (queryEncoder != encoder) {
        queryEncoder.close();
      }
      return null;
    }, false));
  }

  @Override
  public String toString() {
    return "OnnxEmbedder[" + modelName() + ", lanes=" + lanes + ", batchSize=" + batchSize + ", inferenceBatch="
        + inferenceBatch + "]";
  }
}
