package dev.argus.cli;

import dev.argus.app.*;
import dev.argus.bench.BenchCalibrationCommand;
import dev.argus.bench.BenchChatCommand;
import dev.argus.bench.BenchCitationsCommand;
import dev.argus.bench.BenchEmbedCommand;
import dev.argus.bench.BenchEvalCommand;
import dev.argus.bench.BenchGraphCommand;
import dev.argus.bench.BenchIngestCommand;
import dev.argus.bench.BenchLlmServeCommand;
import dev.argus.bench.BenchSearchCommand;
import dev.argus.bench.BenchStoresCommand;
import dev.argus.bench.BenchStoresSciFactCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one runnable jar: {@code serve}, {@code ingest}, {@code eval-retrieval} and the other sub-commands. */
@Command(name = "argus", mixinStandardHelpOptions = true, version = "argus 0.1.0",
    description = "Agentic RAG and risk-decision service on Eclipse Vert.x.",
    subcommands = {ServeCommand.class, IngestCommand.class, EvalRetrievalCommand.class, EvalAgentCommand.class,
        AdversarialCommand.class, MigrateStoreCommand.class,
        LoadRecordsCommand.class, GenerateWorldCommand.class, KeysCommand.class, BacktestCommand.class,
        BenchEmbedCommand.class, BenchIngestCommand.class, BenchSearchCommand.class, BenchChatCommand.class,
        BenchStoresCommand.class, BenchStoresSciFactCommand.class, BenchCitationsCommand.class,
        BenchEvalCommand.class, BenchCalibrationCommand.class, BenchGraphCommand.class, BenchLlmServeCommand.class,
        CommandLine.HelpCommand.class})
public final class Main {

  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }
}
