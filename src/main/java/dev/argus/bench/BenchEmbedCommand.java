package dev.argus.bench;

import dev.argus.embed.Embedder;
import dev.argus.embed.onnx.BertOnnxEncoder;
import dev.argus.embed.onnx.OnnxEmbedder;
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
import java.util.List;
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

  @Override
  public Integer call() throws Exception {
    List<String> texts = load(corpus, limit);
    double avgChars = texts.stream().mapToInt(String::length).average().orElse(0);
    System.out.printf("bench-embed: %d passages from %s (avg %.0f chars), batch %d, threads %d, %d cores%n",
        texts.size(), corpus, avgChars, batch, threads, Runtime.getRuntime().availableProcessors());
    System.out.printf("%-22s %-34s %10s %12s%n", "model", "method", "seconds", "passages/s");
    for (String name : models) {
      LocalModel model = LocalModel.forProvider(name.strip());
      try (BertOnnxEncoder encoder = BertOnnxEncoder.load(model, threads)) {
        encoder.embed(texts.subList(0, Math.min(8, texts.size())), batch);
        row(model, "onnx padded batch " + batch + " (" + threads + " thr)", texts.size(), () -> encoder.embed(texts, batch));
        row(model, "onnx one by one (" + threads + " thr)", texts.size(), () -> encoder.embed(texts, 1));
      }
      Vertx vertx = Vertx.vertx();
      try {
        Embedder embedder = get(OnnxEmbedder.load(vertx, model, threads, batch));
        get(embedder.embedPassages(texts.subList(0, Math.min(8, texts.size()))));
        row(model, "argus embedder (" + threads + "x1 thr)", texts.size(),
            () -> get(embedder.embedPassages(texts)));
        long[] latencies = new long[Math.min(100, texts.size())];
        for (int i = 0; i < latencies.length; i++) {
          String query = texts.get(i).substring(0, Math.min(60, texts.get(i).length()));
          long t0 = System.nanoTime();
          get(embedder.embedQuery(query));
          latencies[i] = System.nanoTime() - t0;
        }
        java.util.Arrays.sort(latencies);
        System.out.printf("%-22s %-34s %10s %12s   p50 %.1f ms, p95 %.1f ms (%d queries of 60 chars)%n",
            model.modelName(), "argus embedQuery latency", "", "", latencies[latencies.length / 2] / 1e6,
            latencies[(int) Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.95) - 1)] / 1e6,
            latencies.length);
        get(embedder.close());
      } finally {
        get(vertx.close());
      }
      if (!skipLangchain4j) {
        EmbeddingModel l4j = model == LocalModel.BGE_SMALL
            ? new BgeSmallEnV15QuantizedEmbeddingModel() : new AllMiniLmL6V2QuantizedEmbeddingModel();
        l4j.embedAll(texts.subList(0, Math.min(8, texts.size())).stream().map(TextSegment::from).toList());
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        row(model, "langchain4j embedAll", texts.size(), () -> l4j.embedAll(segments));
      }
    }
    System.out.println("(end-to-end ingestion throughput: measured by scripts/bench-ingest once ingestion lands)");
    return 0;
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
