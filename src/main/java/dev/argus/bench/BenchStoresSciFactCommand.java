package dev.argus.bench;

import dev.argus.config.ArgusConfig;
import dev.argus.config.PgConf;
import dev.argus.embed.Embedder;
import dev.argus.app.Embedders;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.app.KnowledgeStores;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.pg.PgKnowledgeStore;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Hidden {@code argus bench-stores-scifact}: the side-by-side part of {@code scripts/bench-stores}. Embeds the SciFact
 * corpus once (one chunk per abstract, title + text) with the configured embedder, writes it into a fresh SQLite store
 * and a scratch PostgreSQL database, and for each backend and retriever leg reports store write throughput, search
 * latency p50/p95 and queries/s with 1 and 8 clients, and nDCG@10 on the train queries (per leg; fusion belongs to
 * the retrieval layer and is measured by {@code eval-retrieval}).
 */
@Command(name = "bench-stores-scifact", hidden = true, mixinStandardHelpOptions = true,
    description = "SciFact on both knowledge-store backends side by side (used by scripts/bench-stores).")
public final class BenchStoresSciFactCommand implements java.util.concurrent.Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json")
  Path config;
  @Option(names = "--data", defaultValue = "../shared/datasets/scifact")
  Path data;
  @Option(names = "--writers", defaultValue = "4")
  int writers;

  private record Doc(String id, String title, String text) {
  }

  @Override
  public Integer call() throws Exception {
    ArgusConfig conf = ArgusConfig.load(config, System.getenv());
    List<Doc> docs = new ArrayList<>();
    for (String line : Files.readAllLines(data.resolve("corpus.jsonl"))) {
      JsonObject j = new JsonObject(line);
      docs.add(new Doc(j.getString("_id"), j.getString("title", ""), j.getString("text", "")));
    }
    Map<String, Map<String, Integer>> qrels = new HashMap<>();
    for (String line : Files.readAllLines(data.resolve("qrels.tsv")).subList(1, Files.readAllLines(data.resolve("qrels.tsv")).size())) {
      String[] f = line.split("\t");
      qrels.computeIfAbsent(f[0], k -> new HashMap<>()).put(f[1], Integer.parseInt(f[2].trim()));
    }
    List<String[]> queries = new ArrayList<>();
    for (String line : Files.readAllLines(data.resolve("queries.jsonl"))) {
      JsonObject j = new JsonObject(line);
      if (qrels.containsKey(j.getString("_id"))) {
        queries.add(new String[] {j.getString("_id"), j.getString("text")});
      }
    }
    Vertx vertx = Vertx.vertx();
    Path tmp = Files.createTempDirectory("argus-bench-");
    String pgName = "argus_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    PgConf admin = conf.pg().withDatabase("postgres");
    try {
      Embedder embedder = get(Embedders.create(vertx, conf.embedding()));
      long t0 = System.nanoTime();
      List<float[]> vectors = new ArrayList<>();
      for (int from = 0; from < docs.size(); from += 64) {
        List<String> texts = docs.subList(from, Math.min(docs.size(), from + 64)).stream()
            .map(d -> d.title() + "\n" + d.text()).toList();
        vectors.addAll(get(embedder.embedPassages(texts)));
      }
      double embedSecs = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "embedder %s: %d passages in %.1f s (%.1f passages/s)%n", embedder.modelName(),
          docs.size(), embedSecs, docs.size() / embedSecs);
      List<float[]> queryVectors = new ArrayList<>();
      double[] embedQueryMs = new double[queries.size()];
      for (int i = 0; i < queries.size(); i++) {
        long t = System.nanoTime();
        queryVectors.add(get(embedder.embedQuery(queries.get(i)[1])));
        embedQueryMs[i] = (System.nanoTime() - t) / 1e6;
      }
      System.out.printf(Locale.ROOT, "query embedding: p50 %.1f ms, p95 %.1f ms over %d queries%n",
          pct(embedQueryMs, 50), pct(embedQueryMs, 95), queries.size());

      try (Connection c = jdbc(admin); Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE " + pgName);
      }
      Map<String, Database> backends = new LinkedHashMap<>();
      Map<String, List<List<String>>> vectorHits = new HashMap<>();
      backends.put("sqlite", get(Database.sqlite(vertx, tmp.resolve("argus.db"))));
      backends.put("postgres", get(Database.postgres(vertx, conf.pg().withDatabase(pgName))));
      System.out.println();
      System.out.println("| backend | write docs/s | end-to-end ingest docs/s | leg | nDCG@10 | p50 ms | p95 ms | q/s 1 client | p95 ms 8 clients | q/s 8 clients |");
      System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
      for (var backend : backends.entrySet()) {
        KnowledgeStore store = get(KnowledgeStores.create(backend.getValue(), conf));
        get(store.checkEmbeddingModel(embedder.modelName(), embedder.dimension()));
        long w0 = System.nanoTime();
        parallel(docs.size(), writers, i -> {
          Doc d = docs.get(i);
          get(store.upsert(new Document(d.id(), "default", d.title(), "scifact", d.text(), new JsonObject(), null, 0, null, null),
              List.of(new Chunk(d.id(), 0, 1, d.text(), vectors.get(i)))));
        });
        double writeSecs = (System.nanoTime() - w0) / 1e9;
        if (backend.getKey().equals("postgres")) {
          // Statistics as autovacuum's ANALYZE leaves them a minute after a bulk load (the text legs' BM25 reads them).
          get(backend.getValue().pool().query("ANALYZE chunks").execute());
        }
        for (String leg : List.of("vector", "keyword", "trigram")) {
          List<List<String>> results = new ArrayList<>(java.util.Collections.nCopies(queries.size(), null));
          IntConsumer search = i -> {
            List<ScoredChunk> hits = switch (leg) {
              case "vector" -> get(store.vectorSearch(queryVectors.get(i), 10, SearchFilter.NONE));
              case "keyword" -> get(store.keywordSearch(queries.get(i)[1], 10, SearchFilter.NONE));
              default -> get(store.trigramSearch(queries.get(i)[1], 10, SearchFilter.NONE));
            };
            results.set(i, hits.stream().map(ScoredChunk::documentId).toList());
          };
          double[] one = new double[queries.size()];
          long s0 = System.nanoTime();
          parallel(queries.size(), 1, timed(search, one));
          double qps1 = queries.size() / ((System.nanoTime() - s0) / 1e9);
          double[] eight = new double[queries.size()];
          s0 = System.nanoTime();
          parallel(queries.size(), 8, timed(search, eight));
          double qps8 = queries.size() / ((System.nanoTime() - s0) / 1e9);
          double ndcg = 0;
          for (int i = 0; i < queries.size(); i++) {
            ndcg += ndcg10(results.get(i), qrels.get(queries.get(i)[0]));
          }
          if (leg.equals("vector")) {
            vectorHits.put(backend.getKey(), results);
          }
          System.out.printf(Locale.ROOT, "| %s | %.0f | %.1f | %s | %.3f | %.1f | %.1f | %.0f | %.1f | %.0f |%n", backend.getKey(),
              docs.size() / writeSecs, docs.size() / (embedSecs + writeSecs), leg, ndcg / queries.size(), pct(one, 50),
              pct(one, 95), qps1, pct(eight, 95), qps8);
        }
        if (store instanceof PgKnowledgeStore) {
          hnswRecall(backend.getValue(), conf.pg().withDatabase(pgName), queryVectors, vectorHits.get("sqlite"));
        }
        get(store.close());
        get(backend.getValue().close());
      }
      get(embedder.close());
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      try (Connection c = jdbc(admin); Statement st = c.createStatement()) {
        st.execute("DROP DATABASE IF EXISTS " + pgName + " WITH (FORCE)");
      }
      try (var files = Files.walk(tmp)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    return 0;
  }

  /**
   * HNSW recall@10 of the PostgreSQL vector leg on real embeddings, per {@code ef_search}, against the embedded store's
   * vector leg, which scans every vector (exact); with the latency of the PostgreSQL leg at that setting.
   */
  private static void hnswRecall(Database db, PgConf pg, List<float[]> queryVectors, List<List<String>> exact) {
    System.out.println();
    System.out.println("| ef_search | HNSW recall@10 vs exact (bge, SciFact) | p50 ms | p95 ms |");
    System.out.println("| --- | --- | --- | --- |");
    for (int ef : new int[] {20, 40, 100, 200}) {
      PgKnowledgeStore store = new PgKnowledgeStore(db, pg.withEfSearch(ef));
      double found = 0;
      double wanted = 0;
      double[] ms = new double[queryVectors.size()];
      for (int i = 0; i < queryVectors.size(); i++) {
        long t = System.nanoTime();
        List<ScoredChunk> hits = get(store.vectorSearch(queryVectors.get(i), 10, SearchFilter.NONE));
        ms[i] = (System.nanoTime() - t) / 1e6;
        Set<String> truth = new HashSet<>(exact.get(i));
        found += hits.stream().filter(h -> truth.contains(h.documentId())).count();
        wanted += truth.size();
      }
      System.out.printf(Locale.ROOT, "| %d%s | %.3f | %.1f | %.1f |%n", ef, ef == pg.efSearch() ? " (default)" : "",
          found / wanted, pct(ms, 50), pct(ms, 95));
    }
  }

  private static IntConsumer timed(IntConsumer action, double[] ms) {
    return i -> {
      long t = System.nanoTime();
      action.accept(i);
      ms[i] = (System.nanoTime() - t) / 1e6;
    };
  }

  /** Runs {@code action(0..n-1)} on {@code threads} client threads, each taking the next index. */
  private static void parallel(int n, int threads, IntConsumer action) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger next = new AtomicInteger();
    List<CompletableFuture<Void>> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      all.add(CompletableFuture.runAsync(() -> {
        for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
          action.accept(i);
        }
      }, pool));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(2, TimeUnit.HOURS);
    pool.shutdown();
  }

  /** nDCG@10 with graded relevance: DCG = sum rel_i / log2(i + 1) over ranks 1..10, divided by the ideal DCG. */
  static double ndcg10(List<String> ranked, Map<String, Integer> relevant) {
    double dcg = 0;
    Set<String> seen = new HashSet<>();
    int rank = 0;
    for (String id : ranked) {
      if (!seen.add(id) || ++rank > 10) {
        continue;
      }
      dcg += relevant.getOrDefault(id, 0) / (Math.log(rank + 1) / Math.log(2));
    }
    int[] gains = relevant.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    double ideal = 0;
    for (int i = 0; i < Math.min(10, gains.length); i++) {
      ideal += gains[gains.length - 1 - i] / (Math.log(i + 2) / Math.log(2));
    }
    return ideal == 0 ? 0 : dcg / ideal;
  }

  private static double pct(double[] values, int p) {
    double[] s = values.clone();
    Arrays.sort(s);
    return s[Math.max(0, Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1))];
  }

  private static Connection jdbc(PgConf pg) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), pg.user(),
        pg.password());
  }

  private static <T> T get(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
