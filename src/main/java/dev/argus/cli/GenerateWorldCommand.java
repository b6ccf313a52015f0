package dev.argus.cli;

import dev.argus.records.world.WorldGenerator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code argus generate-world --sellers N --seed S --out world.jsonl}: writes a deterministic synthetic world (same
 * sellers and seed, same bytes) in the records wire format, with planted fraud patterns, false-positive traps and a
 * ground-truth label per seller and buyer. About 100 transactions per seller.
 */
@Command(name = "generate-world", mixinStandardHelpOptions = true,
    description = "Write a deterministic synthetic fraud-domain world as JSON Lines (load it with load-records).")
public final class GenerateWorldCommand implements Callable<Integer> {

  @Option(names = "--sellers", required = true, description = "number of sellers (at least 60; ~100 transactions each)")
  int sellers;

  @Option(names = "--seed", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--out", required = true, description = "output file (JSON Lines)")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintStream err = System.err;
    if (sellers < WorldGenerator.MIN_SELLERS || sellers > 1_000_000) {
      err.println("argus generate-world: --sellers must be between " + WorldGenerator.MIN_SELLERS + " and 1000000");
      return 2;
    }
    long started = System.nanoTime();
    WorldGenerator.Summary summary;
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer w = new BufferedWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8), 1 << 20)) {
      summary = WorldGenerator.generate(sellers, seed, w);
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf(Locale.ROOT, "wrote %d records to %s in %.1f s: %s; planted groups: %s%n", summary.total(), out,
        seconds, summary.lines(), summary.groups());
    return 0;
  }
}
