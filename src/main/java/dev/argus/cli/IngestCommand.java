package dev.argus.cli;

import dev.argus.app.ServiceFactory;
import dev.argus.app.Services;
import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.config.DataFolderLock;
import dev.argus.ingest.DocumentOutcome;
import dev.argus.ingest.DocumentRules;
import dev.argus.ingest.Format;
import dev.argus.ingest.IngestService;
import dev.argus.ingest.JsonlParser;
import dev.argus.ingest.ReplaceMode;
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
 * while earlier documents are written, one transaction per document). Folders are walked recursively for
 * {@code .txt .md .markdown .html .htm .jsonl}; the other files found are listed as skipped. A bad file or a bad
 * JSONL line is reported and the rest is stored. It takes the data folder's lock ({@link DataFolderLock}) and
 * refuses to run while a server holds it. Shows a progress bar (log lines print above it) and a summary; exits 1 if
 * any document failed, 2 on a usage or configuration error or when the data folder is in use.
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

  @Option(names = "--replace", description = "replace stored documents of the same id even when the id comes from a"
      + " file name (by default only documents that name their id replace)")
  boolean replace;

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
    List<Path> skipped = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> walk = Files.walk(p)) {
          for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
            (Format.isSupportedFile(f.getFileName().toString()) ? files : skipped).add(f);
          }
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
    if (!skipped.isEmpty()) {
      err.println("skipped " + skipped.size() + " unsupported file(s) (use .txt .md .markdown .html .htm .jsonl):");
      skipped.forEach(f -> err.println("  " + f));
    }
    List<SourceDocument> docs = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Path file : files) {
      try {
        docs.addAll(read(file, conf, failures));
      } catch (ApiException | IOException e) {
        failures.add(file + ": " + e.getMessage());
      }
    }
    if (docs.isEmpty() && failures.isEmpty()) {
      err.println("argus ingest: no supported files found");
      return 2;
    }
    DataFolderLock lock;
    try {
      lock = DataFolderLock.acquire(conf.data().dir(), "argus ingest");
    } catch (DataFolderLock.HeldException | ConfigException e) {
      err.println("argus ingest: " + e.getMessage());
      return 2;
    }
    try (lock) {
      return ingest(conf, docs, failures);
    }
  }

  private int ingest(ArgusConfig conf, List<SourceDocument> docs, List<String> failures) throws Exception {
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
        return run(new IngestService(vertx, conf.ingest(), services.embedder(), services.knowledge()), docs, failures);
      } finally {
        services.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
      }
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  private int run(IngestService service, List<SourceDocument> docs, List<String> failures) throws Exception {
    long started = System.nanoTime();
    int failed = failures.size();
    ProgressBar bar = new ProgressBar(err, docs.size(), quiet);
    // the pipeline reports outcomes in order, a few at a time, on one event-loop context
    int[] counts = new int[5]; // created, replaced, unchanged, failed, done
    long[] chunkCount = new long[1];
    List<String> pipelineFailures = new ArrayList<>();
    try (ProgressBar.LogCapture logs = bar.captureLogs()) {
      service.ingestAll(docs, replace ? ReplaceMode.ALWAYS : ReplaceMode.AUTO, outcomes -> {
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
      bar.finish();
    }
    failed += counts[3];
    failures.addAll(pipelineFailures);
    double seconds = (System.nanoTime() - started) / 1e9;
    out.printf(Locale.ROOT, "ingested %d document(s) in %.1f s (%.1f docs/s): %d created, %d replaced, %d unchanged, "
            + "%d failed; %d chunks%n", docs.size(), seconds, seconds > 0 ? docs.size() / seconds : 0.0, counts[0],
        counts[1], counts[2], failed, chunkCount[0]);
    for (String f : failures) {
      err.println("failed: " + f);
    }
    return failed > 0 ? 1 : 0;
  }

  /** A file's documents; the bad lines of a JSONL file are added to {@code failures}. */
  private List<SourceDocument> read(Path file, ArgusConfig conf, List<String> failures) throws IOException {
    String name = file.getFileName().toString();
    long size = Files.size(file);
    if (size > conf.ingest().maxFileBytes()) {
      throw ApiException.tooLarge("file is " + size + " bytes; the limit is " + conf.ingest().maxFileBytes()
          + " (ingest.maxFileBytes)");
    }
    String content = DocumentRules.fileContent(name, Files.readString(file, StandardCharsets.UTF_8));
    if (Format.isJsonl(name)) {
      JsonlParser.Batch batch = JsonlParser.parse(content, file.toString(), namespace, Integer.MAX_VALUE,
          conf.ingest().maxDocumentChars());
      batch.rejected().forEach(line -> failures.add(line.error()));
      return batch.documents();
    }
    return List.of(SourceDocument.ofFile(name, Format.ofFileName(name).orElseThrow(), content, namespace));
  }

  /** The progress bar's text, e.g. {@code [#####.....] 5/10 docs  7 chunks  2.5 docs/s}. */
  public static String progressLine(int done, int total, long chunks, long elapsedNanos) {
    return ProgressBar.line(done, total, chunks, elapsedNanos);
  }
}
