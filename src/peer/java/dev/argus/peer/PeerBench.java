package dev.argus.peer;

import dev.argus.eval.BeirDataset;
import dev.argus.eval.BeirLoader;
import dev.argus.eval.Percentiles;
import dev.argus.eval.RetrievalMetrics;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The peer a Java user would otherwise pick: LangChain4j's {@code InMemoryEmbeddingStore} with the same bge-small
 * (quantized) model, whole abstracts ("title. text"), queries embedded as LangChain4j embeds them (no instruction),
 * top 10 by cosine, in process. Prints nDCG@10, per-query latency (query embedding + search) and the query
 * embedding alone, then the same figures of Argus's run (the {@code eval-retrieval --json} file given) beside them,
 * with the ratios. Benchmark code only: it is compiled and run by {@code scripts/bench-peer} against the
 * {@code peer} profile's class path and is not part of the service's jar.
 *
 * <p>Arguments: {@code corpus.jsonl queries.jsonl qrels.tsv cacheDir [argus.json]}. The corpus embeddings are
 * cached in {@code cacheDir} (they take minutes on 2 cores and do not change between runs).
 */
public final class PeerBench {

  private static final int K = 10;

  private PeerBench() {
  }

  public static void main(String[] args) throws Exception {
    BeirDataset data = BeirLoader.load(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]));
    Path cache = Path.of(args[3]);
    EmbeddingModel model = new BgeSmallEnV15QuantizedEmbeddingModel();
    List<float[]> vectors = corpusVectors(model, data.corpus(), cache.resolve("peer-bge-small-q-corpus.bin"));
    InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    for (int i = 0; i < vectors.size(); i++) {
      store.add(data.corpus().get(i).id(), Embedding.from(vectors.get(i)));
    }

    List<BeirDataset.Query> queries = data.judgedQueries();
    for (int i = 0; i < Math.min(50, queries.size()); i++) { // warm-up (JIT), not measured
      store.search(EmbeddingSearchRequest.builder().queryEmbedding(model.embed(queries.get(i).text()).content())
          .maxResults(K).build());
    }
    List<Double> total = new ArrayList<>();
    List<Double> embed = new ArrayList<>();
    List<Double> ndcg = new ArrayList<>();
    for (BeirDataset.Query q : queries) {
      long t0 = System.nanoTime();
      Embedding e = model.embed(q.text()).content();
      long t1 = System.nanoTime();
      List<EmbeddingMatch<TextSegment>> matches = store.search(EmbeddingSearchRequest.builder().queryEmbedding(e)
          .maxResults(K).build()).matches();
      long t2 = System.nanoTime();
      embed.add((t1 - t0) / 1e6);
      total.add((t2 - t0) / 1e6);
      List<String> ranked = matches.stream().map(EmbeddingMatch::embeddingId).toList();
      ndcg.add(RetrievalMetrics.ndcg(ranked, data.qrels().getOrDefault(q.id(), Map.of()), K));
    }
    double peerNdcg = ndcg.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double peerP50 = Percentiles.of(total, 50);
    double peerP95 = Percentiles.of(total, 95);
    double peerEmbed = Percentiles.of(embed, 50);
    double peerQps = 1000.0 * total.size() / total.stream().mapToDouble(Double::doubleValue).sum();
    System.out.printf("%n%-44s %8s %8s %8s %8s %14s%n", "system (SciFact, " + queries.size() + " queries, top 10)",
        "nDCG@10", "p50 ms", "p95 ms", "q/s", "embed p50 ms");
    System.out.printf("%-44s %8.4f %8.2f %8.2f %8.1f %14.2f%n", "LangChain4j InMemoryEmbeddingStore (peer)",
        peerNdcg, peerP50, peerP95, peerQps, peerEmbed);
    if (args.length > 4) {
      JsonArray modes = new JsonObject(Files.readString(Path.of(args[4]))).getJsonArray("modes");
      for (Object o : modes) {
        JsonObject m = (JsonObject) o;
        System.out.printf("%-44s %8.4f %8.2f %8.2f %8s %14s%n", "Argus " + m.getString("mode"), m.getDouble("ndcg@10"),
            m.getDouble("p50Ms"), m.getDouble("p95Ms"), "", "");
      }
      System.out.println();
      for (Object o : modes) {
        JsonObject m = (JsonObject) o;
        System.out.printf("Argus %s / peer: nDCG@10 %+.4f, p50 x%.2f, p95 x%.2f%n", m.getString("mode"),
            m.getDouble("ndcg@10") - peerNdcg, m.getDouble("p50Ms") / peerP50, m.getDouble("p95Ms") / peerP95);
      }
    }
  }

  /** The corpus's vectors, read from {@code file} when it holds this corpus's, else embedded and written there. */
  private static List<float[]> corpusVectors(EmbeddingModel model, List<BeirDataset.CorpusDoc> corpus, Path file)
      throws IOException {
    if (Files.exists(file)) {
      try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
        int n = in.readInt();
        int dim = in.readInt();
        if (n == corpus.size()) {
          List<float[]> out = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            float[] v = new float[dim];
            for (int d = 0; d < dim; d++) {
              v[d] = in.readFloat();
            }
            out.add(v);
          }
          System.err.println("peer: corpus vectors read from " + file);
          return out;
        }
      }
    }
    System.err.printf("peer: embedding %d abstracts with LangChain4j (cached in %s afterwards)...%n", corpus.size(), file);
    long start = System.nanoTime();
    List<float[]> out = new ArrayList<>(corpus.size());
    for (int from = 0; from < corpus.size(); from += 64) {
      List<TextSegment> batch = new ArrayList<>();
      for (BeirDataset.CorpusDoc d : corpus.subList(from, Math.min(corpus.size(), from + 64))) {
        batch.add(TextSegment.from(d.title().isBlank() ? d.text() : d.title() + ". " + d.text()));
      }
      model.embedAll(batch).content().forEach(e -> out.add(e.vector()));
      System.err.printf("\rpeer: %d/%d", out.size(), corpus.size());
    }
    System.err.printf("%npeer: embedded in %.0f s%n", (System.nanoTime() - start) / 1e9);
    Files.createDirectories(file.getParent());
    try (DataOutputStream o = new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
      o.writeInt(out.size());
      o.writeInt(out.get(0).length);
      for (float[] v : out) {
        for (float x : v) {
          o.writeFloat(x);
        }
      }
    }
    return out;
  }
}
