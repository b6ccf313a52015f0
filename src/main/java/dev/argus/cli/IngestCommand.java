package dev.argus.cli;

import dev.argus.app.ServiceFactory;
import dev.argus.app.Services;
import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.ingest.DocumentOutcome;
import dev.argus.ingest.DocumentRules;
import dev.argus.ingest.Format;
import dev.argus.ingest.IngestService;
import dev.argus.ingest.JsonlParser;
import dev.argus.ingest.SourceDocument;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
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
 * {@code argus ingest <files or folders...>}: ingests files in process into the configured store (the same
 * pipeline as the service, {@link IngestService#ingestAll}: parse, dedupe by content hash, chunk, embed in batches
 * while earlier documents are written, one transaction per document). Folders are walked recursively for {@code .txt .md .markdown .html .htm .jsonl}. Shows a progress
 * bar and a summary; exits 1 if any document failed, 2 on a usage or configuration error.
 */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Ingest files or folders (.txt .md .markdown .html .htm .jsonl) into the configured knowledge store.")
public final class IngestCommand implements java.util.concurrent.Callable<Integer> {

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "files or folders (walked recursively)")
  List<Path> paths;

  @Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})", defaultValue = "conf/argus.json")
  Path config;

  @Option(names = "--namespace", description = "namespace for documents that do not name one (default: ${DEFAULT-VALUE})",
      defaultValue = "default")
  String namespace;

  @Option(names = "--quiet", description = "no progress bar")
  boolean quiet;

  private PrintStream out;
  private PrintStream err;

  @Override
  public Integer call() throws Exception {
    out = System.out;
    err = System.err;
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv());
      DocumentRules.namespace(namespace);
    } catch (ConfigException | ApiException e) {
      err.println("argus ingest: " + e.getMessage());
      return 2;
    }
    List<Path> files = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> walk = Files.walk(p)) {
          walk.filter(Files::isRegularFile).filter(f -> Format.isSupportedFile(f.getFileName().toString())).sorted()
              .forEach(files::add);
        }
      } else if (Files.isRegularFile(p)) {
        if (!Format.isSupportedFile(p.getFileName().toString())) {
          err.println("argus ingest: unsupported file type: " + p + " (use .txt .md .markdown .html .htm .jsonl)");
          return 2;
        }
        files.add(p);
      } else {
        err.println("argus ingest: no such file or folder: " + p);
        return 2;
      }
    }
    List<SourceDocument> docs = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Path file : files) {
      try {
        docs.addAll(read(file, conf));
      } catch (ApiException | IOException e) {
        failures.add(file + ": " + e.getMessage());
      }
    }
    if (docs.isEmpty() && failures.isEmpty()) {
      err.println("argus ingest: no supported files found");
      return 2;
    }
    Vertx vertx = Vertx.vertx();
    try {
      Services services;
      try {
        services = ServiceFactory.open(vertx, conf).toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
      } catch (Exception e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        err.println("argus ingest: cannot open the store: " + cause.getMessage());
        return 2;
      }
      try {
        return run(new IngestService(vertx, conf.ingest(), services.embedder(), services.knowledge()), docs, failures,
            conf);
      } finally {
        services.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  private int run(IngestService service, List<SourceDocument> docs, List<String> failures, ArgusConfig conf)
      throws Exception {
    long started = System.nanoTime();
    int created = 0;
    int replaced = 0;
    int unchanged = 0;
    int failed = failures.size();
    long chunks = 0;
    ProgressBar bar = new ProgressBar(err, docs.size(), quiet);
    // the pipeline reports outcomes in order, a few at a time, on one event-loop context
    int[] counts = new int[5]; // created, replaced, unchanged, failed, done
    long[] chunkCount = new long[1];
    List<String> pipelineFailures = new ArrayList<>();
    service.ingestAll(docs, outcomes -> {
      for (DocumentOutcome o : outcomes) {
        switch (o.outcome()) {
          case CREATED -> counts[0]++;
          case REPLACED -> counts[1]++;
          case UNCHANGED -> counts[2]++;
          case FAILED -> {
            counts[3]++;
            pipelineFailures.add(o.error());
          }
        }
        if (!o.isFailure()) {
          chunkCount[0] += o.chunks();
        }
        counts[4]++;
      }
      bar.update(counts[4], chunkCount[0], System.nanoTime() - started);
    }, () -> false).toCompletionStage().toCompletableFuture().get(24, TimeUnit.HOURS);
    created = counts[0];
    replaced = counts[1];
    unchanged = counts[2];
    failed += counts[3];
    failures.addAll(pipelineFailures);
    chunks = chunkCount[0];
    bar.finish();
    double seconds = (System.nanoTime() - started) / 1e9;
    out.printf(Locale.ROOT, "ingested %d document(s) in %.1f s (%.1f docs/s): %d created, %d replaced, %d unchanged, "
            + "%d failed; %d chunks%n", docs.size(), seconds, seconds > 0 ? docs.size() / seconds : 0.0, created,
        replaced, unchanged, failed, chunks);
    for (String f : failures) {
      err.println("failed: " + f);
    }
    return failed > 0 ? 1 : 0;
  }

  private List<SourceDocument> read(Path file, ArgusConfig conf) throws IOException {
    String name = file.getFileName().toString();
    long size = Files.size(file);
    if (size > conf.ingest().maxFileBytes()) {
      throw ApiException.tooLarge("file is " + size + " bytes; the limit is " + conf.ingest().maxFileBytes()
          + " (ingest.maxFileBytes)");
    }
    String content = Files.readString(file, StandardCharsets.UTF_8);
    if (Format.isJsonl(name)) {
      return JsonlParser.parse(content, file.toString(), namespace, Integer.MAX_VALUE, conf.ingest().maxDocumentChars());
    }
    if (content.isBlank()) {
      throw ApiException.badRequest("empty_text", "file is empty");
    }
    return List.of(SourceDocument.ofFile(name, Format.ofFileName(name).orElseThrow(), content, namespace));
  }

  /** The progress bar's text, e.g. {@code [#####.....] 5/10 docs  7 chunks  2.5 docs/s}. */
  public static String progressLine(int done, int total, long chunks, long elapsedNanos) {
    return ProgressBar.line(done, total, chunks, elapsedNanos);
  }

  /** A one-line terminal progress bar: documents done of total, chunks, documents per second. */
  static final class ProgressBar {
    private static final int WIDTH = 30;
    private final PrintStream err;
    private final int total;
    private final boolean quiet;

    ProgressBar(PrintStream err, int total, boolean quiet) {
      this.err = err;
      this.total = total;
      this.quiet = quiet;
    }

    void update(int done, long chunks, long elapsedNanos) {
      if (!quiet) {
        err.print("\r" + line(done, total, chunks, elapsedNanos));
        err.flush();
      }
    }

    void finish() {
      if (!quiet) {
        err.println();
      }
    }

    static String line(int done, int total, long chunks, long elapsedNanos) {
      int filled = total == 0 ? WIDTH : (int) ((long) done * WIDTH / total);
      double seconds = elapsedNanos / 1e9;
      return String.format(Locale.ROOT, "[%s%s] %d/%d docs  %d chunks  %.1f docs/s", "#".repeat(filled),
          ".".repeat(WIDTH - filled), done, total, chunks, seconds > 0 ? done / seconds : 0.0);
    }
  }
}
