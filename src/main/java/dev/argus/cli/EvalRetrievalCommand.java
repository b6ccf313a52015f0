package dev.argus.cli;

import dev.argus.app.MainVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.config.ConfigLoader;
import dev.argus.eval.BeirDataset;
import dev.argus.eval.BeirLoader;
import dev.argus.eval.EvalMode;
import dev.argus.eval.EvalReport;
import dev.argus.eval.EvalRunner;
import dev.argus.eval.ModeResult;
import dev.argus.retrieval.Collapse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code argus eval-retrieval}: measures retrieval quality on a BEIR-format dataset. Starts the service in-process
 * (a fresh temporary SQLite store unless {@code --store} names a data folder or {@code postgres}), ingests the
 * corpus through the ingestion API into namespace {@code eval}, runs every judged query in every mode, and prints
 * one table (nDCG@k, recall@100, MRR, p50/p95 latency per mode).
 */
@Command(name = "eval-retrieval", mixinStandardHelpOptions = true,
    description = "Evaluate retrieval (nDCG@k, recall@100, MRR, latency) per mode on a BEIR-format dataset.")
public final class EvalRetrievalCommand implements Callable<Integer> {

  @Option(names = "--corpus", required = true, description = "corpus.jsonl (_id, title, text, metadata)")
  Path corpus;

  @Option(names = "--queries", required = true, description = "queries.jsonl (_id, text)")
  Path queries;

  @Option(names = "--qrels", required = true, description = "qrels.tsv (query-id, corpus-id, score; header line)")
  Path qrels;

  @Option(names = "--k", defaultValue = "10", description = "cut-off for nDCG (default: ${DEFAULT-VALUE})")
  int k;

  @Option(names = "--modes", defaultValue = "vector,keyword,trigram,hybrid",
      description = "comma list of vector, keyword, trigram, hybrid (all three fused), hybrid-default (the service's default retrievers) (default: ${DEFAULT-VALUE})")
  String modes;

  @Option(names = "--limit-queries", description = "evaluate only the first N judged queries")
  Integer limitQueries;

  @Option(names = "--store", description = "reuse a store: a data folder (SQLite) or 'postgres'; default: a fresh "
      + "temporary folder, deleted afterwards")
  String store;

  @Option(names = "--skip-ingest", description = "do not ingest (the reused --store already holds the corpus)")
  boolean skipIngest;

  @Option(names = "--batch-size", defaultValue = "64", description = "documents per ingestion request (default: ${DEFAULT-VALUE})")
  int batchSize;

  @Option(names = "--warmup-seconds", defaultValue = "0", description = "unmeasured searches for this many seconds "
      + "first (cycling through the queries and modes), so that latencies are those of a warm service "
      + "(default: ${DEFAULT-VALUE})")
  int warmupSeconds;

  @Option(names = "--depth", defaultValue = "100",
      description = "results asked per query (topK; recall and MRR at this depth; default: ${DEFAULT-VALUE})")
  int depth;

  @Option(names = "--collapse", defaultValue = "none",
      description = "none (default) or document: every search keeps each document's best chunk only")
  String collapseName;

  @Option(names = "--rankings", description = "also write every query's ranking in every mode to this file (JSON lines)")
  Path rankings;

  @Option(names = "--json", description = "also write the results as JSON to this file")
  Path json;

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file (default: ${DEFAULT-VALUE})")
  Path config;

  private PrintStream out = System.out;
  private PrintStream err = System.err;

  /** For tests: where the table and the progress go. */
  public EvalRetrievalCommand withOutput(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
    return this;
  }

  @Override
  public Integer call() throws Exception {
    List<EvalMode> modeList;
    Collapse collapse;
    BeirDataset dataset;
    try {
      if (depth < 1 || depth > 1000) {
        throw new IllegalArgumentException("--depth must be between 1 and 1000");
      }
      if (k < 1 || k > depth) {
        throw new IllegalArgumentException("--k must be between 1 and --depth (" + depth + ")");
      }
      collapse = Collapse.parse(collapseName);
      if (collapse == null) {
        throw new IllegalArgumentException("--collapse must be none or document");
      }
      if (batchSize < 1 || batchSize > 10_000) {
        throw new IllegalArgumentException("--batch-size must be between 1 and 10000");
      }
      if (limitQueries != null && limitQueries < 1) {
        throw new IllegalArgumentException("--limit-queries must be positive");
      }
      if (skipIngest && store == null) {
        throw new IllegalArgumentException("--skip-ingest needs --store (a fresh store is empty)");
      }
      modeList = EvalMode.parseList(modes);
      dataset = BeirLoader.load(corpus, queries, qrels);
    } catch (IllegalArgumentException | IOException e) {
      err.println("argus eval-retrieval: " + e.getMessage());
      return 2;
    }
    List<BeirDataset.Query> judged = dataset.judgedQueries();
    if (limitQueries != null && judged.size() > limitQueries) {
      judged = judged.subList(0, limitQueries);
    }
    if (judged.isEmpty()) {
      err.println("argus eval-retrieval: no query has a relevance judgment in " + qrels);
      return 2;
    }
    err.printf("dataset: %d documents, %d judged queries, modes %s%n", dataset.corpus().size(), judged.size(), modes);

    Path tempDir = null;
    ArgusConfig conf;
    try {
      JsonObject raw = ConfigLoader.load(config, System.getenv());
      if (store == null) {
        tempDir = Files.createTempDirectory("argus-eval-");
        raw.getJsonObject("data").put("dir", tempDir.toString());
        raw.getJsonObject("store").put("type", "sqlite");
      } else if (store.equals("postgres")) {
        raw.getJsonObject("store").put("type", "postgres");
      } else {
        raw.getJsonObject("data").put("dir", store);
        raw.getJsonObject("store").put("type", "sqlite");
      }
      raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
      raw.getJsonObject("ingest").put("loadSamples", false);
      // No result cache: every query must reach the retrievers, or latencies and modes would be mixed up.
      raw.getJsonObject("retrieval").put("cacheTtlMs", 0).put("cacheMaxEntries", 0);
      conf = ArgusConfig.from(raw);
    } catch (ConfigException e) {
      err.println("argus eval-retrieval: configuration error: " + e.getMessage());
      return 2;
    }

    Vertx vertx = Vertx.vertx();
    List<JsonObject> ranked = new java.util.ArrayList<>();
    try {
      MainVerticle main = new MainVerticle(conf);
      WebClient http = WebClient.create(vertx);
      List<BeirDataset.Query> toRun = judged;
      Future<List<ModeResult>> run = vertx.deployVerticle(main).compose(id -> {
        EvalRunner runner = new EvalRunner(vertx, http, main.httpPort(), err, conf.retrieval().timeoutMs() + 5_000)
            .depth(depth).collapse(collapse);
        if (rankings != null) {
          runner.rankings(ranked::add); // written at the end, off the event loop
        }
        Future<?> ingested = skipIngest ? Future.succeededFuture() : runner.ingest(dataset.corpus(), batchSize)
            .map(s -> {
              err.printf("ingested %d documents in %.1f s (%.1f docs/s): %d created, %d replaced, %d unchanged, %d failed%n",
                  s.total(), s.seconds(), s.total() / Math.max(s.seconds(), 1e-9), s.created(), s.replaced(),
                  s.unchanged(), s.failed());
              s.errors().forEach(e -> err.println("  failed: " + e));
              return s;
            });
        return ingested.compose(v -> runner.warmUp(toRun, modeList, warmupSeconds))
            .compose(v -> runner.evaluate(toRun, dataset.qrels(), modeList, k));
      });
      List<ModeResult> results = run.toCompletionStage().toCompletableFuture().get(24, TimeUnit.HOURS);
      EvalReport report = EvalReport.of(results);
      out.print(report.table());
      results.stream().filter(r -> r.cachedReplies() > 0).forEach(r -> err.println("warning: " + r.cachedReplies()
          + " replies in mode " + r.mode() + " came from the retrieval cache"));
      if (rankings != null) {
        Files.write(rankings, ranked.stream().map(JsonObject::encode).toList());
        err.println("wrote " + rankings);
      }
      if (json != null) {
        Path parent = json.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(json, report.json().encodePrettily());
        err.println("wrote " + json);
      }
      return 0;
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      err.println("\nargus eval-retrieval: " + cause.getMessage());
      return 1;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      if (tempDir != null) {
        deleteTree(tempDir);
      }
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary folder left behind is harmless
    }
  }
}
