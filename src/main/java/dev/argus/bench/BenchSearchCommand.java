package dev.argus.bench;

import dev.argus.app.MainVerticle;
import dev.argus.app.Services;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.config.ConfigLoader;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.UpsertResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-search} (hidden): search latency and throughput through real HTTP. Starts the service on
 * a data folder (a fresh temporary one, removed at the end, unless {@code --data-dir}), optionally ingests a BEIR corpus straight
 * into the store (one chunk per document: title and text; documents already stored with the same content are
 * skipped, so a kept data folder is reused), prints the resident memory, then sends {@code POST /api/search}
 * with 1 and 8 concurrent clients (closed loop: each client sends its next query when the previous answer
 * arrived) and prints p50/p95/p99 latency and queries per second. The retrieval cache is disabled in the
 * started service; with {@code --url} (an already running service) every query is sent once where possible.
 */
@Command(name = "bench-search", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark POST /api/search latency and throughput (not a test).")
public final class BenchSearchCommand implements Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file (default: ${DEFAULT-VALUE})")
  Path config;

  @Option(names = "--data-dir", description = "data folder of the started service (default: a new temporary folder)")
  Path dataDir;

  @Option(names = "--url", description = "benchmark an already running service at this base URL instead of starting one")
  String url;

  @Option(names = "--dataset", description = "a BEIR folder holding corpus.jsonl and queries.jsonl")
  Path dataset;

  @Option(names = "--corpus", description = "BEIR corpus.jsonl to ingest ({_id, title, text} a line)")
  Path corpus;

  @Option(names = "--queries", description = "BEIR queries.jsonl ({_id, text} a line)")
  Path queries;

  @Option(names = "--limit", defaultValue = "0", description = "ingest only the first N corpus documents (0: all)")
  int limit;

  @Option(names = "--namespace", defaultValue = "bench", description = "namespace of the ingested corpus (default: ${DEFAULT-VALUE})")
  String namespace;

  @Option(names = "--clients", defaultValue = "1,8", split = ",", description = "concurrent clients per run (default: ${DEFAULT-VALUE})")
  List<Integer> clients;

  @Option(names = "--requests", defaultValue = "300", description = "measured requests per run (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--warmup", defaultValue = "50", description = "unmeasured requests before the runs (default: ${DEFAULT-VALUE})")
  int warmup;

  @Option(names = "--warmup-seconds", defaultValue = "0", description = "then this many seconds of unmeasured "
      + "requests at the largest client count, so that the JIT has compiled the search path (about 30 s of "
      + "traffic) and the runs measure the steady state of a running service (default: ${DEFAULT-VALUE})")
  int warmupSeconds;

  @Option(names = "--top-k", defaultValue = "10", description = "topK of every search (default: ${DEFAULT-VALUE})")
  int topK;

  @Option(names = "--retrievers", split = ",", description = "retrievers to use (default: none named, so the"
      + " service's default search: vector and keyword, trigram when the query calls for it)")
  List<String> retrievers;

  @Option(names = "--json", description = "also write the figures to this JSON file")
  Path json;

  @Override
  public Integer call() throws Exception {
    if (dataset != null) {
      corpus = corpus != null ? corpus : dataset.resolve("corpus.jsonl");
      queries = queries != null ? queries : dataset.resolve("queries.jsonl");
    }
    if (queries == null) {
      System.err.println("bench-search: give --queries or --dataset");
      return 2;
    }
    List<String> queryTexts = readQueries(queries);
    if (queryTexts.isEmpty()) {
      System.err.println("bench-search: no queries in " + queries);
      return 2;
    }
    Vertx server = null;
    Vertx client = Vertx.vertx();
    Path tempDir = null;
    JsonObject report = new JsonObject();
    try {
      String base = url;
      if (base == null) {
        ArgusConfig conf;
        try {
          conf = benchConfig();
          tempDir = dataDir == null ? conf.data().dir() : null;
        } catch (ConfigException e) {
          System.err.println("bench-search: configuration error: " + e.getMessage());
          return 2;
        }
        System.out.println("data folder: " + conf.data().dir().toAbsolutePath());
        server = Vertx.vertx();
        MainVerticle main = new MainVerticle(conf);
        try {
          await(server.deployVerticle(main), 10, TimeUnit.MINUTES);
        } catch (Exception e) {
          System.err.println("bench-search: the service failed to start: " + e.getMessage());
          return 1;
        }
        base = "http://127.0.0.1:" + main.httpPort();
        if (corpus != null) {
          report.put("ingest", ingest(main.services()));
        }
        JsonObject stats = await(main.services().knowledge().stats(), 1, TimeUnit.MINUTES).toJson();
        report.put("store", stats);
        System.out.println("store: " + stats.encode());
        long rssKb = residentKb();
        report.put("rssMb", rssKb / 1024.0);
        System.out.printf(Locale.ROOT, "resident memory (VmRSS) after ingestion: %.1f MB%n", rssKb / 1024.0);
      } else if (corpus != null) {
        System.out.println("note: --corpus is ignored with --url (ingest through the service first)");
      }
      report.put("runs", load(client, base, queryTexts));
      if (json != null) {
        Files.writeString(json, report.encodePrettily());
        System.out.println("wrote " + json);
      }
      return 0;
    } finally {
      await(client.close(), 1, TimeUnit.MINUTES);
      if (server != null) {
        await(server.close(), 2, TimeUnit.MINUTES);
      }
      if (tempDir != null) {
        deleteTree(tempDir);
      }
    }
  }

  /** Removes the temporary data folder this run created. */
  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private ArgusConfig benchConfig() throws IOException {
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    Path dir = dataDir != null ? dataDir : Files.createTempDirectory("argus-bench-");
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", false);
    raw.getJsonObject("retrieval").put("cacheTtlMs", 0);
    return ArgusConfig.from(raw);
  }

  /** Embeds and stores the corpus in batches, one chunk per document, straight through the services. */
  private JsonObject ingest(Services services) throws Exception {
    int batchSize = services.config().embedding().batchSize() * 4;
    long start = System.nanoTime();
    int read = 0;
    int created = 0;
    int skipped = 0;
    List<Document> batch = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(corpus, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null && (limit <= 0 || read < limit)) {
        if (line.isBlank()) {
          continue;
        }
        JsonObject row = new JsonObject(line);
        read++;
        String title = row.getString("title", "");
        String text = title.isBlank() ? row.getString("text", "") : title + "\n" + row.getString("text", "");
        String id = row.getString("_id", row.getString("id"));
        String hash = sha256(title + "\u0000" + text);
        if (await(services.knowledge().contentHash(id), 1, TimeUnit.MINUTES).map(hash::equals).orElse(false)) {
          skipped++;
          continue;
        }
        batch.add(new Document(id, namespace, title, corpus.getFileName().toString(), text, new JsonObject(), hash, 1,
            null, null));
        if (batch.size() == batchSize) {
          created += store(services, batch);
          batch.clear();
          progress(read, start);
        }
      }
    }
    created += store(services, batch);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "%ningested %d documents (%d already stored) in %.1f s: %.1f documents/s%n",
        created, skipped, seconds, created / Math.max(seconds, 1e-9));
    return new JsonObject().put("read", read).put("stored", created).put("skipped", skipped).put("seconds", seconds);
  }

  private static int store(Services services, List<Document> docs) throws Exception {
    if (docs.isEmpty()) {
      return 0;
    }
    List<float[]> vectors = await(services.embedder().embedPassages(docs.stream().map(Document::text).toList()),
        30, TimeUnit.MINUTES);
    List<Future<UpsertResult>> writes = new ArrayList<>();
    for (int i = 0; i < docs.size(); i++) {
      Document d = docs.get(i);
      writes.add(services.knowledge().upsert(d, List.of(new Chunk(d.id(), 0, 1, d.text(), vectors.get(i)))));
    }
    await(Future.all(writes), 10, TimeUnit.MINUTES);
    return docs.size();
  }

  private static void progress(int read, long start) {
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "\r  %d documents read, %.1f s", read, seconds);
    System.out.flush();
  }

  /** Warm-up, then one measured run per client count. */
  private JsonArray load(Vertx vertx, String base, List<String> texts) throws Exception {
    URI uri = URI.create(base);
    WebClient web = WebClient.create(vertx, new WebClientOptions().setDefaultHost(uri.getHost())
        .setDefaultPort(uri.getPort() > 0 ? uri.getPort() : 80).setKeepAlive(true), new PoolOptions().setHttp1MaxSize(64));
    SearchLoad searches = new SearchLoad(web, texts, topK, retrievers);
    int needed = warmup + requests * clients.size();
    if (needed > texts.size()) {
      System.out.println("note: " + needed + " requests but " + texts.size()
          + " distinct queries: some are repeated (the started service has no cache)");
    }
    await(searches.run(1, warmup), 60, TimeUnit.MINUTES);
    long warmEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
    int busiest = clients.stream().mapToInt(Integer::intValue).max().orElse(1);
    while (System.nanoTime() < warmEnd) {
      await(searches.run(busiest, 50 * busiest), 60, TimeUnit.MINUTES);
    }
    JsonArray runs = new JsonArray();
    System.out.println();
    System.out.println("clients  requests  errors   p50 ms   p95 ms   p99 ms   max ms    q/s   server-side mean ms per stage");
    for (int c : clients) {
      SearchLoad.Run run = await(searches.run(c, requests), 60, TimeUnit.MINUTES);
      double[] lat = run.latencies();
      Arrays.sort(lat);
      double p50 = percentile(lat, 50);
      double p95 = percentile(lat, 95);
      double p99 = percentile(lat, 99);
      double max = lat.length == 0 ? 0 : lat[lat.length - 1];
      double qps = lat.length / run.seconds();
      JsonObject stages = new JsonObject();
      int ok = Math.max(1, lat.length - run.errors());
      StringBuilder stageText = new StringBuilder();
      for (int i = 0; i < SearchLoad.STAGES.size(); i++) {
        String stage = SearchLoad.STAGES.get(i);
        double mean = run.server()[i] / ok;
        stages.put(stage, mean);
        stageText.append(String.format(Locale.ROOT, " %s=%.1f", stage.replace("Ms", ""), mean));
      }
      System.out.printf(Locale.ROOT, "%7d  %8d  %6d  %7.2f  %7.2f  %7.2f  %7.2f  %6.1f  %s%n", c, lat.length,
          run.errors(), p50, p95, p99, max, qps, stageText.toString().strip());
      runs.add(new JsonObject().put("clients", c).put("requests", lat.length).put("errors", run.errors())
          .put("p50Ms", p50).put("p95Ms", p95).put("p99Ms", p99).put("maxMs", max).put("qps", qps)
          .put("serverMeanMs", stages));
    }
    return runs;
  }

  /** Nearest-rank percentile of sorted values. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static List<String> readQueries(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        String text = new JsonObject(line).getString("text");
        if (text != null && !text.isBlank()) {
          out.add(text);
        }
      }
    }
    return out;
  }

  /** The resident set size of this process, from {@code /proc/self/status} (0 where there is none). */
  static long residentKb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
    return 0;
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T> T await(Future<T> future, long timeout, TimeUnit unit) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(timeout, unit);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    }
  }
}
