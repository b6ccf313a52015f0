package dev.argus.bench;

import dev.argus.embed.Embedder;
import dev.argus.embed.onnx.BertOnnxEncoder;
import dev.argus.embed.onnx.OnnxEmbedder;
import dev.argus.eval.Percentiles;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import dev.argus.embed.onnx.LocalModel;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-embed} (hidden): raw passage throughput of the bundled models, our batched ONNX Runtime
 * inference versus langchain4j's {@code embedAll}, over the first N passages (title + text) of a BEIR corpus.
 */
@Command(name = "bench-embed", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark raw embedding throughput (passages/s) of the bundled models.")
public final class BenchEmbedCommand implements Callable<Integer> {

  @Option(names = "--corpus", defaultValue = "../shared/datasets/scifact/corpus.jsonl",
      description = "BEIR corpus.jsonl (default: ${DEFAULT-VALUE})")
  Path corpus;

  @Option(names = "--limit", defaultValue = "200", description = "passages to embed (default: ${DEFAULT-VALUE})")
  int limit;

  @Option(names = "--batch", defaultValue = "16", description = "batch size for batched inference (default: ${DEFAULT-VALUE})")
  int batch;

  @Option(names = "--threads", defaultValue = "2", description = "ONNX Runtime intra-op threads (default: ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--models", split = ",", defaultValue = "bge-small,minilm",
      description = "models to measure (default: ${DEFAULT-VALUE})")
  List<String> models;

  @Option(names = "--skip-langchain4j", description = "do not measure langchain4j embedAll")
  boolean skipLangchain4j;

  @Option(names = "--queries", description = "BEIR queries.jsonl for the query latency (default: queries.jsonl beside --corpus)")
  Path queries;

  @Option(names = "--queries-only", description = "measure the query latency only (no passage throughput)")
  boolean queriesOnly;

  @Override
  public Integer call() throws Exception {
    List<String> texts = load(corpus, limit);
    double avgChars = texts.stream().mapToInt(String::length).average().orElse(0);
    System.out.printf("bench-embed: %d passages from %s (avg %.0f chars), batch %d, threads %d, %d cores%n",
        texts.size(), corpus, avgChars, batch, threads, Runtime.getRuntime().availableProcessors());
    System.out.printf("%-22s %-34s %10s %12s%n", "model", "method", "seconds", "passages/s");
    for (String name : models) {
      LocalModel model = LocalModel.forProvider(name.strip());
      if (!queriesOnly) {
        try (BertOnnxEncoder encoder = BertOnnxEncoder.load(model, threads);
             BertOnnxEncoder shipped = BertOnnxEncoder.load(model, threads, true, false)) {
          encoder.embed(texts.subList(0, Math.min(8, texts.size())), batch);
          shipped.embed(texts.subList(0, Math.min(8, texts.size())), batch);
          row(model, "onnx padded batch " + batch + " (" + threads + " thr)", texts.size(), () -> encoder.embed(texts, batch));
          row(model, "the same, shipped graph", texts.size(), () -> shipped.embed(texts, batch));
          row(model, "onnx one by one (" + threads + " thr)", texts.size(), () -> encoder.embed(texts, 1));
          row(model, "the same, shipped graph", texts.size(), () -> shipped.embed(texts, 1));
        }
      }
      EmbeddingModel l4j = model == LocalModel.BGE_SMALL
          ? new BgeSmallEnV15QuantizedEmbeddingModel() : new AllMiniLmL6V2QuantizedEmbeddingModel();
      Vertx vertx = Vertx.vertx();
      try {
        Embedder embedder = get(OnnxEmbedder.load(vertx, model, threads, batch));
        get(embedder.embedPassages(texts.subList(0, Math.min(8, texts.size()))));
        if (!queriesOnly) {
          row(model, "argus embedder (" + threads + "x1 thr)", texts.size(), () -> get(embedder.embedPassages(texts)));
        }
        Embedder twoThreads = get(OnnxEmbedder.load(vertx, model, threads, batch, 1, 1, 2, false, false));
        Embedder spinning = get(OnnxEmbedder.load(vertx, model, threads, batch, 1, 1, 2, false, true));
        BertOnnxEncoder fusedGraph = BertOnnxEncoder.load(model, 1, false, true);
        BertOnnxEncoder shippedGraph = BertOnnxEncoder.load(model, 1, false, false);
        Map<String, Function<String, Object>> contenders = new LinkedHashMap<>();
        contenders.put("argus embedQuery", q -> get(embedder.embedQuery(q)));
        contenders.put("encoder, fused graph (direct)", fusedGraph::embedOne);
        contenders.put("encoder, shipped graph (direct)", shippedGraph::embedOne);
        contenders.put("argus, queryThreads 2", q -> get(twoThreads.embedQuery(q)));
        contenders.put("argus, queryThreads 2 spinning", q -> get(spinning.embedQuery(q)));
        contenders.put("langchain4j embed(query)", l4j::embed);
        queryLatency(model, contenders, queryTexts());
        fusedGraph.close();
        shippedGraph.close();
        get(spinning.close());
        get(twoThreads.close());
        get(embedder.close());
      } finally {
        get(vertx.close());
      }
      if (!queriesOnly && !skipLangchain4j) {
        l4j.embedAll(texts.subList(0, Math.min(8, texts.size())).stream().map(TextSegment::from).toList());
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        row(model, "langchain4j embedAll", texts.size(), () -> l4j.embedAll(segments));
      }
    }
    System.out.println("(end-to-end ingestion throughput: measured by scripts/bench-ingest once ingestion lands)");
    return 0;
  }

  /**
   * Query embedding latency of each contender (Argus's {@code embedQuery} through its worker pool, as a search does,
   * and LangChain4j's {@code embed} of the same model in this process) on the same queries, taking turns query by
   * query (A B C for the first query, then for the second, ...): this machine's speed drifts by up to 2x within
   * minutes, and turns of a whole round of queries each let the drift decide differences of a few per cent.
   */
  private static void queryLatency(LocalModel model, Map<String, Function<String, Object>> contenders,
                                   List<String> queries) {
    for (int i = 0; i < Math.min(30, queries.size()); i++) { // warm-up
      for (Function<String, Object> embed : contenders.values()) {
        embed.apply(queries.get(i));
      }
    }
    Map<String, List<Double>> millis = new LinkedHashMap<>();
    contenders.keySet().forEach(name -> millis.put(name, new ArrayList<>()));
    for (int round = 0; round < 2; round++) {
      for (String q : queries) {
        for (Map.Entry<String, Function<String, Object>> c : contenders.entrySet()) {
          long t0 = System.nanoTime();
          c.getValue().apply(q);
          millis.get(c.getKey()).add((System.nanoTime() - t0) / 1e6);
        }
      }
    }
    double chars = queries.stream().mapToInt(String::length).average().orElse(0);
    millis.forEach((name, ms) -> System.out.printf("%-22s %-34s %10s %12s   p50 %.2f ms, p95 %.2f ms (%d queries, avg %.0f chars, x2)%n",
        model.modelName(), name + " latency", "", "", Percentiles.of(ms, 50), Percentiles.of(ms, 95), queries.size(),
        chars));
  }

  /** The first 200 queries of the queries file (beside the corpus unless --queries), or 60-char passage heads. */
  private List<String> queryTexts() throws Exception {
    Path file = queries != null ? queries : corpus.resolveSibling("queries.jsonl");
    List<String> out = new ArrayList<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (!line.isBlank() && out.size() < 200) {
          out.add(new JsonObject(line).getString("text", ""));
        }
      }
    }
    if (out.isEmpty()) {
      for (String t : load(corpus, 100)) {
        out.add(t.substring(0, Math.min(60, t.length())));
      }
    }
    return out;
  }

  /** Waits for a future on this CLI thread (never an event loop). */
  private static <T> T get(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void row(LocalModel model, String method, int n, Runnable work) {
    long start = System.nanoTime();
    work.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("%-22s %-34s %10.2f %12.1f%n", model.modelName(), method, seconds, n / seconds);
  }

  /** The first {@code limit} passages of a BEIR corpus as "title. text" (or just text when untitled). */
  static List<String> load(Path corpus, int limit) throws Exception {
    List<String> texts = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      String line;
      while (texts.size() < limit && (line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonObject doc = new JsonObject(line);
        String title = doc.getString("title", "");
        String text = doc.getString("text", "");
        texts.add(title.isBlank() ? text : title + ". " + text);
      }
    }
    if (texts.isEmpty()) {
      throw new IllegalArgumentException("no passages in " + corpus);
    }
    return texts;
  }
}
