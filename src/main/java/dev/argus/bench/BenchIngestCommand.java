package dev.argus.bench;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.embed.Embedder;
import dev.argus.app.Embedders;
import dev.argus.ingest.IngestRequest;
import dev.argus.ingest.IngestService;
import dev.argus.ingest.IngestVerticle;
import dev.argus.ingest.JsonlParser;
import dev.argus.ingest.SourceDocument;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.app.KnowledgeStores;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code argus bench-ingest} (hidden): raw embedder throughput versus end-to-end ingestion throughput over the first
 * N documents of a BEIR corpus, on fresh temporary SQLite stores.
 *
 * <p>(a) raw: {@link Embedder#embedPassages} over exactly the passages the pipeline embeds (same chunker, same title
 * prefix, {@link IngestService#embeddingTexts}), in consecutive calls of {@code ingest.embedBatchSize} passages, one
 * call at a time; (b) ingestion: the whole set submitted as one job on {@link Addresses#INGEST_SUBMIT} to a deployed
 * {@link IngestVerticle} over a fresh store (parse, dedupe check, chunk, embed, one transaction per document, events),
 * timed until the finished job's reply. Both use the same embedder instance (the configured one). (a) and (b)
 * alternate {@code --rounds} times; each figure carries the load average before and after it.
 */
@Command(name = "bench-ingest", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark end-to-end ingestion throughput against raw embedder throughput.")
public final class BenchIngestCommand implements Callable<Integer> {

  @Option(names = "--corpus", defaultValue = "../shared/datasets/scifact/corpus.jsonl",
      description = "BEIR corpus.jsonl (default: ${DEFAULT-VALUE})")
  Path corpus;

  @Option(names = "--limit", defaultValue = "1000", description = "documents to ingest (default: ${DEFAULT-VALUE})")
  int limit;

  @Option(names = "--rounds", defaultValue = "2", description = "alternations of raw and ingestion (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file (default: ${DEFAULT-VALUE})")
  Path config;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    if (limit < 1 || rounds < 1) {
      System.err.println("argus bench-ingest: --limit and --rounds must be at least 1");
      return 2;
    }
    Path tmp = Files.createTempDirectory("argus-bench-ingest");
    ArgusConfig conf = ArgusConfig.load(config, System.getenv())
        .with("store", "type", "sqlite")
        .with("data", "dir", tmp.toString())
        .with("ingest", "loadSamples", false);
    List<SourceDocument> docs = load(corpus, limit, conf);
    List<String> texts = IngestService.embeddingTexts(docs, conf.ingest());
    int batch = conf.ingest().embedBatchSize();
    long chars = docs.stream().mapToLong(SourceDocument::size).sum();
    JsonObject result = new JsonObject()
        .put("corpus", corpus.toString()).put("documents", docs.size()).put("passages", texts.size())
        .put("avgDocChars", Math.round((double) chars / docs.size()))
        .put("embedBatchSize", batch).put("cores", Runtime.getRuntime().availableProcessors())
        .put("embedding", conf.section("embedding").copy().put("apiKey", "")).put("ingest", conf.section("ingest"));
    JsonArray runs = new JsonArray();
    result.put("rounds", runs);
    Vertx vertx = Vertx.vertx();
    try {
      Embedder embedder = get(Embedders.create(vertx, conf.embedding()));
      result.put("embedder", embedder.toString());
      System.out.printf(Locale.ROOT, "bench-ingest: %d documents (avg %d chars) -> %d passages from %s; embedder %s; "
              + "batch %d; %d cores; data %s%n", docs.size(), chars / docs.size(), texts.size(), corpus, embedder, batch,
          Runtime.getRuntime().availableProcessors(), tmp);
      try {
        get(embedder.embedPassages(texts.subList(0, Math.min(batch, texts.size())))); // warm-up
        for (int r = 1; r <= rounds; r++) {
          JsonObject raw = raw(embedder, texts, batch);
          JsonObject ingest = ingest(vertx, conf, embedder, tmp.resolve("run-" + r), docs);
          double ratio = ingest.getDouble("chunksPerSecond") / raw.getDouble("passagesPerSecond");
          runs.add(new JsonObject().put("round", r).put("raw", raw).put("ingest", ingest).put("ratio", ratio));
          System.out.printf(Locale.ROOT, "  round %d: raw %.1f passages/s, ingestion %.1f chunks/s (%.0f%%)%n", r,
              raw.getDouble("passagesPerSecond"), ingest.getDouble("chunksPerSecond"), ratio * 100);
        }
      } finally {
        get(embedder.close());
      }
    } finally {
      get(vertx.close());
      deleteTree(tmp);
    }
    print(result);
    if (json != null) {
      Files.writeString(json, result.encodePrettily() + "\n", StandardCharsets.UTF_8);
      System.out.println("wrote " + json);
    }
    return 0;
  }

  /** (a) The pipeline's passages through the embedder in consecutive calls of {@code batch}, one call at a time. */
  private static JsonObject raw(Embedder embedder, List<String> texts, int batch) {
    String loadBefore = loadAverage();
    long start = System.nanoTime();
    int vectors = 0;
    for (int from = 0; from < texts.size(); from += batch) {
      vectors += get(embedder.embedPassages(texts.subList(from, Math.min(texts.size(), from + batch)))).size();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (vectors != texts.size()) {
      throw new IllegalStateException("the embedder returned " + vectors + " vectors for " + texts.size() + " passages");
    }
    return new JsonObject().put("passages", vectors).put("seconds", seconds)
        .put("passagesPerSecond", vectors / seconds).put("loadBefore", loadBefore).put("loadAfter", loadAverage());
  }

  /** (b) One ingestion job over a fresh store through the deployed {@link IngestVerticle}, as the service runs it. */
  private static JsonObject ingest(Vertx vertx, ArgusConfig conf, Embedder embedder, Path dir,
                                   List<SourceDocument> docs) {
    Database db = get(Database.sqlite(vertx, dir.resolve("argus.db")));
    KnowledgeStore store = get(KnowledgeStores.create(db, conf));
    try {
      get(store.checkEmbeddingModel(embedder.modelName(), embedder.dimension()));
      String deployment = get(vertx.deployVerticle(new IngestVerticle(conf.ingest(), embedder, store)));
      JsonObject request = new IngestRequest(docs, true).toJson();
      String loadBefore = loadAverage();
      long start = System.nanoTime();
      JsonObject job = get(vertx.eventBus().<JsonObject>request(Addresses.INGEST_SUBMIT, request,
          new DeliveryOptions().setSendTimeout(TimeUnit.HOURS.toMillis(2)))).body();
      double seconds = (System.nanoTime() - start) / 1e9;
      String loadAfter = loadAverage();
      JsonObject memory = memory();
      get(vertx.undeploy(deployment));
      long chunks = 0;
      JsonArray outcomes = job.getJsonArray("documents", new JsonArray());
      for (int i = 0; i < outcomes.size(); i++) {
        chunks += outcomes.getJsonObject(i).getInteger("chunks", 0);
      }
      if (job.getInteger("failed", 0) > 0 || job.getInteger("created", 0) != docs.size()) {
        System.err.println("warning: not every document was created: " + new JsonObject()
            .put("created", job.getInteger("created")).put("failed", job.getInteger("failed")).encode());
      }
      return new JsonObject().put("status", job.getString("status")).put("documents", docs.size())
          .put("created", job.getInteger("created")).put("failed", job.getInteger("failed")).put("chunks", chunks)
          .put("seconds", seconds).put("chunksPerSecond", chunks / seconds).put("docsPerSecond", docs.size() / seconds)
          .put("loadBefore", loadBefore).put("loadAfter", loadAfter).put("memory", memory);
    } finally {
      get(store.close());
      get(db.close());
    }
  }

  private static void print(JsonObject result) {
    System.out.println();
    System.out.printf(Locale.ROOT, "Ingestion benchmark: %d documents, %d passages, batch %d, %s%n",
        result.getInteger("documents"), result.getInteger("passages"), result.getInteger("embedBatchSize"),
        result.getString("embedder"));
    String line = "-".repeat(139);
    System.out.println(line);
    System.out.printf(Locale.ROOT, "%-5s | %-10s %8s %12s | %-10s %8s %10s %8s | %6s | %8s %8s | %-16s %-16s%n",
        "round", "raw", "s", "passages/s", "ingestion", "s", "chunks/s", "docs/s", "ratio", "RSS MiB", "heap MiB",
        "load (raw)", "load (ingest)");
    System.out.println(line);
    JsonArray runs = result.getJsonArray("rounds");
    for (int i = 0; i < runs.size(); i++) {
      JsonObject r = runs.getJsonObject(i);
      JsonObject raw = r.getJsonObject("raw");
      JsonObject in = r.getJsonObject("ingest");
      JsonObject mem = in.getJsonObject("memory");
      System.out.printf(Locale.ROOT, "%-5d | %-10s %8.1f %12.1f | %-10s %8.1f %10.1f %8.2f | %5.0f%% | %8.0f %8.0f | %-16s %-16s%n",
          r.getInteger("round"), raw.getInteger("passages") + " psg", raw.getDouble("seconds"),
          raw.getDouble("passagesPerSecond"), in.getLong("chunks") + " chk", in.getDouble("seconds"),
          in.getDouble("chunksPerSecond"), in.getDouble("docsPerSecond"), r.getDouble("ratio") * 100,
          mem.getDouble("rssMiB"), mem.getDouble("heapUsedMiB"), raw.getString("loadBefore") + ">"
              + raw.getString("loadAfter").split(" ")[0], in.getString("loadBefore") + ">"
              + in.getString("loadAfter").split(" ")[0]);
    }
    System.out.println(line);
    System.out.println("ratio = ingestion chunks/s / raw passages/s (target >= 85%); RSS (VmRSS) and heap used right "
        + "after ingestion; load = 1/5/15-min load average before > 1-min after");
  }

  /** VmRSS of this process and the heap in use, in MiB. */
  static JsonObject memory() {
    double rss = -1;
    try {
      for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (l.startsWith("VmRSS:")) {
          rss = Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (Exception e) {
      // not Linux: leave -1
    }
    var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return new JsonObject().put("rssMiB", rss).put("heapUsedMiB", heap.getUsed() / 1048576.0)
        .put("heapCommittedMiB", heap.getCommitted() / 1048576.0);
  }

  /** The first three fields of /proc/loadavg, or "?" where there is none. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "?";
    }
  }

  /** The first {@code limit} documents of a BEIR corpus, read through the JSONL parser the service uses. */
  static List<SourceDocument> load(Path corpus, int limit, ArgusConfig conf) throws Exception {
    StringBuilder lines = new StringBuilder();
    int n = 0;
    try (BufferedReader in = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      String line;
      while (n < limit && (line = in.readLine()) != null) {
        if (!line.isBlank()) {
          lines.append(line).append('\n');
          n++;
        }
      }
    }
    if (n == 0) {
      throw new IllegalArgumentException("no documents in " + corpus);
    }
    return JsonlParser.parse(lines.toString(), corpus.getFileName().toString(), "default", Integer.MAX_VALUE,
        conf.ingest().maxDocumentChars()).documents();
  }

  /** Waits for a future on this CLI thread (never an event loop). */
  private static <T> T get(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(2, TimeUnit.HOURS);
    } catch (Exception e) {
      throw new IllegalStateException(e.getCause() == null ? e : e.getCause());
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (Exception e) {
      System.err.println("could not delete " + dir + ": " + e.getMessage());
    }
  }
}
