package dev.argus.bench;

import dev.argus.config.ArgusConfig;
import dev.argus.config.PgConf;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.knowledge.pg.PgKnowledgeStore;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Hidden {@code argus bench-stores-pg-scale}: the at-scale part of {@code scripts/bench-stores}. Loads N synthetic
 * chunks (clustered vectors of low intrinsic dimension, like sentence embeddings) into a scratch PostgreSQL
 * database, times the HNSW index build through {@link PgKnowledgeStore#checkEmbeddingModel}, and for each
 * {@code ef_search} measures recall@k of {@link PgKnowledgeStore#vectorSearch} against exact search (computed in
 * memory), latency p50/p95 and queries/s with 1 and 8 clients; plus a 1%-selective filtered query.
 */
@Command(name = "bench-stores-pg-scale", hidden = true, mixinStandardHelpOptions = true,
    description = "HNSW recall/latency at scale on a scratch PostgreSQL database (used by scripts/bench-stores).")
public final class BenchStoresCommand implements java.util.concurrent.Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json")
  Path config;
  @Option(names = "--chunks", defaultValue = "100000")
  int chunks;
  @Option(names = "--dim", defaultValue = "384")
  int dim;
  @Option(names = "--queries", defaultValue = "200")
  int queries;
  @Option(names = "--k", defaultValue = "10")
  int k;
  @Option(names = "--ef", split = ",", defaultValue = "40,100,200")
  int[] efs;
  @Option(names = "--keep", description = "keep the scratch database (its name is printed as 'database: NAME')")
  boolean keep;
  @Option(names = "--text-from", description = "a BEIR corpus.jsonl: chunk j gets the title and text of its document"
      + " j mod size (real term statistics for the text legs); default: a short synthetic sentence")
  Path textFrom;
  @Option(names = "--model", description = "embedding model recorded in the store: 'synthetic' (default) or"
      + " 'configured' (the configured embedder's name and dimension, so that the service can open the database)")
  String model = "synthetic";

  private static final int CLUSTERS = 200;
  private static final int LATENT = 24;

  @Override
  public Integer call() throws Exception {
    ArgusConfig conf = ArgusConfig.load(config, System.getenv());
    PgConf base = conf.pg();
    String name = "argus_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    try (Connection admin = jdbc(base.withDatabase("postgres")); Statement st = admin.createStatement()) {
      st.execute("CREATE DATABASE " + name);
      st.execute("ALTER DATABASE " + name + " SET maintenance_work_mem = '1GB'");
    }
    PgConf pg = base.withDatabase(name);
    Vertx vertx = Vertx.vertx();
    try {
      if (model.equals("configured")) {
        dev.argus.embed.Embedder embedder = get(dev.argus.app.Embedders.create(vertx, conf.embedding()));
        model = embedder.modelName();
        dim = embedder.dimension();
        get(embedder.close());
      }
      Database db = get(Database.postgres(vertx, pg));
      PgKnowledgeStore store = new PgKnowledgeStore(db, pg);
      get(store.checkEmbeddingModel(model, dim)); // types the column; the index is rebuilt after the load
      float[][] data = generate(chunks, new Random(1));
      List<String> texts = textFrom == null ? List.of() : corpusTexts(textFrom);
      long t0 = System.nanoTime();
      load(pg, data, texts);
      System.out.printf(Locale.ROOT, "loaded %d chunks (dim %d) in %.1f s%n", chunks, dim, (System.nanoTime() - t0) / 1e9);
      t0 = System.nanoTime();
      get(store.checkEmbeddingModel(model, dim));
      System.out.printf(Locale.ROOT, "HNSW index build (m=%d, ef_construction=%d): %.1f s%n", pg.hnswM(),
          pg.hnswEfConstruction(), (System.nanoTime() - t0) / 1e9);
      float[][] qs = generate(queries, new Random(2));
      List<Set<String>> truth = new ArrayList<>();
      List<Set<String>> truthFiltered = new ArrayList<>();
      List<Set<String>> truthBroad = new ArrayList<>();
      for (float[] q : qs) {
        truth.add(exact(data, q, k, -1));
        truthFiltered.add(exact(data, q, k, 7));
        truthBroad.add(exact(data, q, k, -2));
      }
      System.out.println("| ef_search | recall@" + k + " | p50 ms | p95 ms | q/s 1 client | q/s 8 clients"
          + " | filter 1% (EQ) recall | p95 ms | filter 25% (IN) recall | p95 ms |");
      System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
      for (int ef : efs) {
        PgConf withEf = pg.withEfSearch(ef);
        PgKnowledgeStore s = new PgKnowledgeStore(db, withEf);
        run(s, qs, SearchFilter.NONE, 1); // warm-up
        Result one = run(s, qs, SearchFilter.NONE, 1);
        Result eight = run(s, qs, SearchFilter.NONE, 8);
        SearchFilter group = new SearchFilter(null, List.of(new MetadataCondition("group", MetadataCondition.Op.EQ, List.of(7))));
        Result filtered = run(s, qs, group, 1);
        SearchFilter quarter = new SearchFilter(null, List.of(new MetadataCondition("group", MetadataCondition.Op.IN,
            List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24))));
        Result broad = run(s, qs, quarter, 1);
        System.out.printf(Locale.ROOT, "| %d | %.3f | %.1f | %.1f | %.0f | %.0f | %.3f | %.1f | %.3f | %.1f |%n", ef,
            recall(one.hits, truth), one.p(50), one.p(95), one.qps, eight.qps, recall(filtered.hits, truthFiltered),
            filtered.p(95), recall(broad.hits, truthBroad), broad.p(95));
      }
      get(db.close());
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      if (keep) {
        System.out.println("database: " + name);
      } else {
        try (Connection admin = jdbc(base.withDatabase("postgres")); Statement st = admin.createStatement()) {
          st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        }
      }
    }
    return 0;
  }

  private record Result(List<List<String>> hits, double[] latenciesMs, double qps) {
    double p(int pct) {
      double[] s = latenciesMs.clone();
      Arrays.sort(s);
      return s[Math.min(s.length - 1, (int) Math.ceil(pct / 100.0 * s.length) - 1)];
    }
  }

  private Result run(PgKnowledgeStore store, float[][] qs, SearchFilter filter, int clients) throws Exception {
    List<List<String>> hits = new ArrayList<>(java.util.Collections.nCopies(qs.length, null));
    double[] lat = new double[qs.length];
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    long start = System.nanoTime();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
    for (int c = 0; c < clients; c++) {
      workers.add(CompletableFuture.runAsync(() -> {
        for (int i = next.getAndIncrement(); i < qs.length; i = next.getAndIncrement()) {
          long t = System.nanoTime();
          List<ScoredChunk> r = get(store.vectorSearch(qs[i], k, filter));
          lat[i] = (System.nanoTime() - t) / 1e6;
          hits.set(i, r.stream().map(ScoredChunk::key).toList());
        }
      }, pool));
    }
    CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(1, TimeUnit.HOURS);
    pool.shutdown();
    double secs = (System.nanoTime() - start) / 1e9;
    return new Result(hits, lat, qs.length / secs);
  }

  private static double recall(List<List<String>> hits, List<Set<String>> truth) {
    double found = 0;
    double wanted = 0;
    for (int i = 0; i < hits.size(); i++) {
      for (String h : hits.get(i)) {
        if (truth.get(i).contains(h)) {
          found++;
        }
      }
      wanted += truth.get(i).size();
    }
    return found / wanted;
  }

  /** Clustered unit vectors: a cluster centre plus noise in a random 24-dimensional subspace, plus a little isotropic noise. */
  private float[][] generate(int n, Random rnd) {
    Random fixed = new Random(99); // the same centres and subspace for data and queries
    float[][] centres = new float[CLUSTERS][dim];
    for (float[] c : centres) {
      for (int i = 0; i < dim; i++) {
        c[i] = (float) fixed.nextGaussian();
      }
    }
    float[][] basis = new float[LATENT][dim];
    for (float[] b : basis) {
      for (int i = 0; i < dim; i++) {
        b[i] = (float) (fixed.nextGaussian() * 1.5);
      }
    }
    float[][] out = new float[n][dim];
    for (int j = 0; j < n; j++) {
      float[] v = out[j];
      float[] c = centres[rnd.nextInt(CLUSTERS)];
      System.arraycopy(c, 0, v, 0, dim);
      for (float[] b : basis) {
        float z = (float) rnd.nextGaussian();
        for (int i = 0; i < dim; i++) {
          v[i] += z * b[i];
        }
      }
      double norm = 0;
      for (int i = 0; i < dim; i++) {
        v[i] += (float) (rnd.nextGaussian() * 0.5);
        norm += v[i] * v[i];
      }
      for (int i = 0; i < dim; i++) {
        v[i] /= (float) Math.sqrt(norm);
      }
    }
    return out;
  }

  /** Chunk j belongs to document j / 10, chunk index j % 10; documents carry {@code group = doc % 100}. */
  private static Set<String> exact(float[][] data, float[] q, int k, int group) {
    java.util.PriorityQueue<double[]> best = new java.util.PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    for (int j = 0; j < data.length; j++) {
      if (group >= 0 && (j / 10) % 100 != group || group == -2 && (j / 10) % 100 >= 25) {
        continue;
      }
      double s = 0;
      float[] v = data[j];
      for (int i = 0; i < v.length; i++) {
        s += v[i] * q[i];
      }
      if (best.size() < k) {
        best.add(new double[] {s, j});
      } else if (s > best.peek()[0]) {
        best.poll();
        best.add(new double[] {s, j});
      }
    }
    Set<String> keys = new HashSet<>();
    for (double[] b : best) {
      int j = (int) b[1];
      keys.add("d" + (j / 10) + "#" + (j % 10));
    }
    return keys;
  }

  /** Title and text of every document of a BEIR corpus, in file order. */
  private static List<String> corpusTexts(Path corpus) throws java.io.IOException {
    return dev.argus.eval.BeirLoader.readCorpus(corpus).stream()
        .map(d -> ((d.title() == null ? "" : d.title()) + " " + (d.text() == null ? "" : d.text())).strip()).toList();
  }

  /** COPY text format: backslash, tab, newline and carriage return escaped. */
  private static String copyText(String s) {
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  private void load(PgConf pg, float[][] data, List<String> texts) throws Exception {
    try (Connection c = jdbc(pg); Statement st = c.createStatement()) {
      st.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw");
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      int docs = (data.length + 9) / 10;
      StringBuilder sb = new StringBuilder();
      for (int d = 0; d < docs; d++) {
        int n = Math.min(10, data.length - d * 10);
        sb.append('d').append(d).append("\tdefault\tSynthetic document ").append(d).append("\t\\N\tsynthetic text ").append(d)
            .append("\t{\"group\": ").append(d % 100).append("}\th").append(d).append('\t').append(n).append('\n');
      }
      copy.copyIn("COPY documents (id, namespace, title, source, text, metadata, content_hash, chunk_count) FROM STDIN",
          new StringReader(sb.toString()));
      for (int from = 0; from < data.length; from += 5000) {
        sb.setLength(0);
        for (int j = from; j < Math.min(data.length, from + 5000); j++) {
          int d = j / 10;
          sb.append('d').append(d).append('\t').append(j % 10).append('\t').append(Math.min(10, data.length - d * 10))
              .append('\t').append(texts.isEmpty() ? "synthetic chunk " + j + " of document " + d
                  : copyText(texts.get(j % texts.size()))).append("\tdefault\tSynthetic document ")
              .append(d).append("\t{\"group\": ").append(d % 100).append("}\t[");
          float[] v = data[j];
          for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ",").append(v[i]);
          }
          sb.append("]\n");
        }
        copy.copyIn("COPY chunks (document_id, idx, total, text, namespace, title, metadata, embedding) FROM STDIN",
            new StringReader(sb.toString()));
      }
      st.execute(dev.argus.knowledge.pg.PgKnowledgeStore.ANALYZE_AFTER_BULK_LOAD);
    }
  }

  private static Connection jdbc(PgConf pg) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(), pg.user(),
        pg.password());
  }

  private static <T> T get(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
