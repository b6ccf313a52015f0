package dev.argus.cli;

import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.knowledge.pg.PgKnowledgeStore;
import dev.argus.migration.SqliteToPostgres;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus migrate-store --from data/argus.db --to postgres}: copies an embedded store into the PostgreSQL
 * database of the configuration ({@code pg.*}, {@code ARGUS_PG_*}) without re-embedding; resumable, verified.
 */
@Command(name = "migrate-store", mixinStandardHelpOptions = true,
    description = "Copy an embedded SQLite store (documents, chunks, vectors, embedding model, runs) into PostgreSQL.")
public final class MigrateStoreCommand implements Callable<Integer> {

  @Option(names = "--from", required = true, description = "the SQLite file of the embedded store, e.g. data/argus.db")
  Path from;

  @Option(names = "--to", required = true, description = "target backend: postgres (settings from the pg section / ARGUS_PG_*)")
  String to;

  @Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})", defaultValue = "conf/argus.json")
  Path config;

  @Option(names = "--batch", description = "documents per page (default: ${DEFAULT-VALUE})", defaultValue = "100")
  int batch;

  @Override
  public Integer call() throws Exception {
    if (!"postgres".equalsIgnoreCase(to)) {
      System.err.println("argus migrate-store: --to must be 'postgres'");
      return 2;
    }
    if (!Files.isRegularFile(from)) {
      System.err.println("argus migrate-store: no SQLite store at " + from);
      return 2;
    }
    if (batch < 1 || batch > 10_000) {
      System.err.println("argus migrate-store: --batch must be between 1 and 10000");
      return 2;
    }
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv());
    } catch (ConfigException e) {
      System.err.println("argus: configuration error: " + e.getMessage());
      return 2;
    }
    Vertx vertx = Vertx.vertx();
    try {
      SqliteToPostgres.Report report = migrate(vertx, from, conf, batch)
          .toCompletionStage().toCompletableFuture().get(24, TimeUnit.HOURS);
      System.out.printf("migrate-store: %d documents and %d chunks verified in PostgreSQL (copied now %d, already there %d)%n",
          report.documents(), report.chunks(), report.copied(), report.skipped());
      if (!report.ok()) {
        report.problems().stream().limit(50).forEach(p -> System.err.println("migrate-store: " + p));
        System.err.println("migrate-store: verification FAILED (" + report.problems().size() + " problems); run it again to resume");
        return 1;
      }
      System.out.println("migrate-store: verification passed");
      return 0;
    } catch (java.util.concurrent.ExecutionException e) {
      System.err.println("argus migrate-store: failed: " + e.getCause().getMessage() + " (run it again to resume)");
      return 1;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  /** Opens both databases, copies, verifies, and closes them. */
  public static Future<SqliteToPostgres.Report> migrate(Vertx vertx, Path sqliteFile, ArgusConfig conf, int batch) {
    return Database.sqlite(vertx, sqliteFile).compose(src -> Database.postgres(vertx, conf.pg())
        .compose(dst -> new SqliteToPostgres(src.pool(), dst.pool(), new PgKnowledgeStore(dst, conf.pg()), batch,
                line -> System.out.println("migrate-store: " + line)).run()
            .eventually(dst::close))
        .eventually(src::close));
  }
}
