package dev.argus.cli;

import dev.argus.app.ServiceFactory;
import dev.argus.app.Services;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.graph.GraphStores;
import dev.argus.graph.GraphVerticle;
import dev.argus.ingest.IngestVerticle;
import dev.argus.records.BatchResult;
import dev.argus.records.CaseDocuments;
import dev.argus.records.LineError;
import dev.argus.records.LineSource;
import dev.argus.records.RecordLoader;
import dev.argus.records.RecordStores;
import dev.argus.records.RecordValidator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code argus load-records <file>}: loads a JSON Lines file of fraud-domain records in process into the configured
 * store (the same {@link RecordLoader} as {@code POST /api/records}: validation per line, one transaction per batch,
 * upsert by id, idempotent), with a progress bar; case summaries go to the knowledge base through an in-process
 * ingestion service (unless {@code --no-documents}). With {@code --graph} the entity graph is built in the same pass by
 * the service's own graph verticle (each committed batch is applied to it, as {@code POST /api/records} does); without
 * it the records are stored without a graph. Exits 1 when a line was refused or a batch failed, 2 on usage or configuration errors.
 */
@Command(name = "load-records", mixinStandardHelpOptions = true,
    description = "Load a JSON Lines file of fraud-domain records into the configured store.")
public final class LoadRecordsCommand implements java.util.concurrent.Callable<Integer> {

  static final int ERRORS_SHOWN = 20;

  @Parameters(index = "0", paramLabel = "FILE", description = "JSON Lines file")
  Path file;

  @Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})", defaultValue = "conf/argus.json")
  Path config;

  @Option(names = "--batch", description = "records per committed batch (default: records.batchSize)")
  Integer batch;

  @Option(names = "--no-documents", description = "do not add case summaries to the knowledge base")
  boolean noDocuments;

  @Option(names = "--quiet", description = "no progress bar")
  boolean quiet;

  @Option(names = "--graph", description = "build the entity graph from the records in the same pass, as the service does")
  boolean graph;

  @Override
  public Integer call() throws Exception {
    PrintStream err = System.err;
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv()).with("ingest", "loadSamples", false);
    } catch (ConfigException e) {
      err.println("argus load-records: " + e.getMessage());
      return 2;
    }
    if (!Files.isRegularFile(file)) {
      err.println("argus load-records: no such file: " + file);
      return 2;
    }
    if (batch != null && (batch < 1 || batch > 10_000)) {
      err.println("argus load-records: --batch must be between 1 and 10000");
      return 2;
    }
    long total;
    try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
      total = lines.count();
    }
    Vertx vertx = Vertx.vertx();
    try {
      Services services;
      try {
        services = ServiceFactory.open(vertx, conf).toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
      } catch (Exception e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        err.println("argus load-records: cannot open the store: " + cause.getMessage());
        return 2;
      }
      try {
        return load(vertx, conf, services, total);
      } finally {
        services.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    }
  }

  private int load(Vertx vertx, ArgusConfig conf, Services services, long total) throws Exception {
    CaseDocuments docs = null;
    if (!noDocuments && conf.records().caseDocuments()) {
      vertx.deployVerticle(new IngestVerticle(conf.ingest(), services.embedder(), services.knowledge()))
          .toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
      docs = new CaseDocuments(vertx, conf.records().caseNamespace(), true);
    }
    if (graph) {
      vertx.deployVerticle(new GraphVerticle(conf.graph(), GraphStores.create(services.database(),
              conf.graph().cacheNodes()), services.fingerprinter()), GraphVerticle.deploymentOptions())
          .toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    }
    RecordLoader loader = new RecordLoader(vertx, RecordStores.create(services.database()),
        new RecordValidator(services.fingerprinter(), conf.records().maxLineChars()),
        batch == null ? conf.records().batchSize() : batch, conf.records().graphTimeoutMs(), docs);
    long started = System.nanoTime();
    long[] counts = new long[5]; // lines, created, updated, unchanged, failed
    List<LineError> errors = new ArrayList<>();
    PrintStream err = System.err;
    Boolean cut;
    try (LineSource source = new LineSource(Files.newBufferedReader(file, StandardCharsets.UTF_8))) {
      cut = loader.load(source, (BatchResult b) -> {
        counts[0] = b.lastLine();
        counts[1] += b.created();
        counts[2] += b.updated();
        counts[3] += b.unchanged();
        counts[4] += b.errors().size();
        b.errors().stream().limit(Math.max(0, ERRORS_SHOWN - errors.size())).forEach(errors::add);
        if (!quiet) {
          err.print("\r" + progressLine(counts[0], total, counts[1] + counts[2] + counts[3], counts[4],
              System.nanoTime() - started));
        }
      }, () -> false).toCompletionStage().toCompletableFuture().get(24, TimeUnit.HOURS);
    } catch (java.util.concurrent.ExecutionException e) {
      err.println();
      err.println("argus load-records: a batch could not be written: " + e.getCause().getMessage());
      return 1;
    }
    if (!quiet) {
      err.println();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    long stored = counts[1] + counts[2] + counts[3];
    System.out.printf(Locale.ROOT, "loaded %d line(s) in %.1f s (%.0f records/s): %d created, %d updated, %d unchanged, "
        + "%d refused%n", counts[0], seconds, seconds > 0 ? stored / seconds : 0.0, counts[1], counts[2], counts[3],
        counts[4]);
    Runtime rt = Runtime.getRuntime();
    System.out.printf(Locale.ROOT, "memory: peak RSS %s MB, heap used %d MB of %d MB%n", peakRssMb(),
        (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20);
    for (LineError e : errors) {
      err.println("line " + e.line() + (e.field() == null ? "" : ", field " + e.field()) + ": " + e.reason());
    }
    if (counts[4] > errors.size()) {
      err.println("... and " + (counts[4] - errors.size()) + " more refused line(s)");
    }
    // fresh planner statistics at once: the service's periodic check would otherwise come later (or not run)
    List<String> analysed = dev.argus.store.PlannerStatistics.refreshStale(services.database())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    System.out.println("planner statistics refreshed: "
        + (analysed.isEmpty() ? "none stale" : String.join(", ", analysed)));
    if (docs != null) {
      docs.drained().toCompletionStage().toCompletableFuture().get(24, TimeUnit.HOURS);
    }
    return counts[4] > 0 || Boolean.TRUE.equals(cut) ? 1 : 0;
  }

  /** The process's peak resident set size from {@code /proc/self/status} (VmHWM), or "?" elsewhere. */
  static String peakRssMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.toString(Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10);
        }
      }
    } catch (Exception ignored) {
      // not Linux
    }
    return "?";
  }

  /** The progress line, e.g. {@code [######....] 600/1000 lines  590 stored  10 refused  25000 records/s}. */
  static String progressLine(long done, long total, long stored, long refused, long elapsedNanos) {
    int width = 30;
    int filled = total <= 0 ? width : (int) Math.min(width, done * width / total);
    double seconds = elapsedNanos / 1e9;
    return String.format(Locale.ROOT, "[%s%s] %d/%d lines  %d stored  %d refused  %.0f records/s",
        "#".repeat(filled), ".".repeat(width - filled), done, total, stored, refused, seconds > 0 ? stored / seconds : 0.0);
  }
}
