package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Not a test: per-leg search latency of the SQLite store over synthetic chunks (Zipf-distributed vocabulary,
 * ~1,000 characters each, random 384-d unit vectors), measured through the public API from one client.
 * {@code java --add-modules jdk.incubator.vector -cp ... dev.argus.knowledge.sqlite.StoreLatencyBenchmark 5000}
 */
public final class StoreLatencyBenchmark {

  private StoreLatencyBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int docs = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int dim = 384;
    Vertx vertx = Vertx.vertx();
    Path dir = Files.createTempDirectory("argus-bench-");
    Database db = await(Database.sqlite(vertx, dir.resolve("argus.db")));
    KnowledgeStore store = await(SqliteKnowledgeStore.open(db));
    await(store.checkEmbeddingModel("random", dim));
    SplittableRandom r = new SplittableRandom(1);
    String[] vocab = new String[5000];
    for (int i = 0; i < vocab.length; i++) {
      StringBuilder w = new StringBuilder();
      int len = 3 + r.nextInt(8);
      for (int j = 0; j < len; j++) {
        w.append((char) ('a' + r.nextInt(26)));
      }
      vocab[i] = w.toString();
    }
    long t0 = System.nanoTime();
    for (int d = 0; d < docs; d++) {
      String text = text(r, vocab, 160);
      List<Chunk> chunks = List.of(new Chunk("doc" + d, 0, 1, text, unit(r, dim)));
      await(store.upsert(new Document("doc" + d, d % 2 == 0 ? "default" : "cases", "Title " + text.substring(0, 30),
          null, text, new JsonObject().put("year", 2000 + d % 25), null, 0, null, null), chunks));
    }
    System.out.printf("ingested %d one-chunk documents in %.1f s%n", docs, (System.nanoTime() - t0) / 1e9);
    SearchFilter filter = new SearchFilter(null, List.of(new MetadataCondition("year", MetadataCondition.Op.GTE, List.of(2020))));
    for (SearchFilter f : List.of(SearchFilter.NONE, filter)) {
      String label = f.isEmpty() ? "no filter" : "year >= 2020";
      time("vector  k=100 " + label, () -> store.vectorSearch(unit(r, dim), 100, f));
      time("keyword k=100 " + label, () -> store.keywordSearch(text(r, vocab, 12), 100, f));
      time("trigram k=100 " + label, () -> store.trigramSearch(text(r, vocab, 12), 100, f));
    }
    await(store.close());
    await(db.close());
    await(vertx.close());
  }

  private static void time(String label, Supplier<Future<List<ScoredChunk>>> query) {
    for (int i = 0; i < 20; i++) {
      await(query.get());
    }
    int n = 100;
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      await(query.get());
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(ms);
    System.out.printf("%-28s p50 %6.1f ms  p95 %6.1f ms%n", label, ms[n / 2], ms[(int) (n * 0.95)]);
  }

  private static String text(SplittableRandom r, String[] vocab, int words) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < words; i++) {
      // Zipf-like: low ranks much more frequent.
      int rank = (int) Math.min(vocab.length - 1, Math.floor(Math.pow(vocab.length, r.nextDouble())) - 1);
      out.add(vocab[Math.max(0, rank)]);
    }
    return String.join(" ", out) + ".";
  }

  private static float[] unit(SplittableRandom r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return Vectors.normalized(v);
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
